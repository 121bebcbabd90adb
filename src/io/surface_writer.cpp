#include "src/io/surface_writer.hpp"

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkStringArray.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLPolyDataWriter.h>

#include <stdexcept>
#include <string>
#include <system_error>

#include "src/io/atomic_file.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/pvd_writer.hpp"
#include "src/io/surface_values.hpp"

namespace aerolbm {
namespace {

class SurfaceWriter final : public FieldWriter {
 public:
  SurfaceWriter(const std::filesystem::path& run_dir, SurfaceMesh mesh, const Attributes& attributes,
                const std::vector<double>& resume_times)
      : run_dir_(run_dir), mesh_(std::move(mesh)), attributes_(attributes) {
    const std::size_t P = mesh_.points.size();
    check_surface_mesh(mesh_);
    if (mesh_.triangles.empty()) throw std::invalid_argument("surface output: the body has no surface");
    for (const auto& t : mesh_.triangles)
      for (auto i : t)
        if (i < 0 || std::size_t(i) >= P) throw std::invalid_argument("surface output: triangle index out of range");
    create_output_folder(run_dir_ / "surface");
    entries_ = resumed_frames(run_dir_, resume_times, file_name, "surface");
    counter_ = std::int64_t(entries_.size());
    remove_frame_files(run_dir_ / "surface", "surface_", ".vtp", counter_);
    write_pvd(run_dir_ / "surface.pvd", entries_);
  }

  std::unique_ptr<EncodedFrame> encode(const FrameData& frame, std::int64_t number) override {
    const std::size_t P = mesh_.points.size();
    const SurfaceValues values = surface_values(mesh_, frame.fields);
    auto e = std::make_unique<EncodedFrame>();
    e->number = number;
    e->time = frame.time;
    e->path = run_dir_ / file_name(number);
    e->tmp = e->path.string() + ".tmp";
    const std::filesystem::path& path = e->path;
    const std::filesystem::path& tmp = e->tmp;

    vtkNew<vtkPoints> pts;
    pts->SetDataTypeToDouble();
    pts->SetNumberOfPoints(vtkIdType(P));
    vtkNew<vtkFloatArray> cp, cf, shear, normals;
    cp->SetName("Cp");
    cp->SetNumberOfValues(vtkIdType(P));
    cf->SetName("Cf");
    cf->SetNumberOfValues(vtkIdType(P));
    shear->SetName("wall_shear");  // τ_w / (½ρU²) as a vector along the surface
    shear->SetNumberOfComponents(3);
    shear->SetNumberOfTuples(vtkIdType(P));
    normals->SetName("normals");
    normals->SetNumberOfComponents(3);
    normals->SetNumberOfTuples(vtkIdType(P));
    for (std::size_t p = 0; p < P; ++p) {
      pts->SetPoint(vtkIdType(p), mesh_.points[p].data());
      cp->SetValue(vtkIdType(p), values.cp[p]);
      cf->SetValue(vtkIdType(p), values.cf[p]);
      shear->SetTypedTuple(vtkIdType(p), &values.shear[3 * p]);
      const float n[3] = {float(mesh_.normals[p][0]), float(mesh_.normals[p][1]), float(mesh_.normals[p][2])};
      normals->SetTypedTuple(vtkIdType(p), n);
    }
    vtkNew<vtkCellArray> polys;
    for (const auto& t : mesh_.triangles) {
      const vtkIdType ids[3] = {vtkIdType(t[0]), vtkIdType(t[1]), vtkIdType(t[2])};
      polys->InsertNextCell(3, ids);
    }
    vtkNew<vtkPolyData> poly;
    poly->SetPoints(pts);
    poly->SetPolys(polys);
    poly->GetPointData()->AddArray(cp);
    poly->GetPointData()->AddArray(cf);
    poly->GetPointData()->AddArray(shear);
    poly->GetPointData()->SetScalars(cp);
    poly->GetPointData()->SetNormals(normals);
    vtkFieldData* fd = poly->GetFieldData();
    for (const auto& [name, value] : attributes_.numbers) {
      vtkNew<vtkDoubleArray> a;
      a->SetName(name.c_str());
      a->InsertNextValue(value);
      fd->AddArray(a);
    }
    vtkNew<vtkTypeInt64Array> step;
    step->SetName("step");
    step->InsertNextValue(frame.step);
    fd->AddArray(step);
    vtkNew<vtkDoubleArray> time;
    time->SetName("TimeValue");
    time->InsertNextValue(frame.time);
    fd->AddArray(time);

    vtkNew<vtkXMLPolyDataWriter> writer;
    writer->SetInputData(poly);
    writer->SetFileName(tmp.c_str());
    writer->SetDataModeToAppended();
    writer->EncodeAppendedDataOff();
    writer->SetCompressorTypeToLZ4();
    writer->SetHeaderTypeToUInt64();
    const int ok = writer->Write();
    const unsigned long code = writer->GetErrorCode();
    if (ok != 1 || code != vtkErrorCode::NoError) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw std::runtime_error("cannot write '" + path.string() + "': VTK: " +
                               (code != vtkErrorCode::NoError ? vtkErrorCode::GetStringFromErrorCode(code)
                                                              : "Write() failed"));
    }
    std::error_code ec;
    e->bytes = std::filesystem::file_size(tmp, ec);
    return e;
  }

  void commit(EncodedFrame& e) override {
    if (e.number != counter_)
      throw std::logic_error("surface frame " + std::to_string(e.number) + " committed out of order");
    rename_into_place(e.tmp, e.path);
    e.committed = true;
    entries_.push_back({e.time, file_name(e.number)});
    try {
      count_bytes(e.bytes + write_pvd(run_dir_ / "surface.pvd", entries_));
    } catch (...) {
      entries_.pop_back();
      throw;
    }
    ++counter_;
  }

  std::int64_t frames() const override { return counter_; }

 protected:
  std::vector<FieldView> fields_of(const Frame& frame) const override { return surface_fields_of(frame); }

 private:
  static std::string file_name(std::int64_t number) { return "surface/surface_" + frame_number(number) + ".vtp"; }

  std::filesystem::path run_dir_;
  SurfaceMesh mesh_;
  Attributes attributes_;
  std::int64_t counter_ = 0;
  std::vector<PvdEntry> entries_;
};

}  // namespace

std::unique_ptr<FieldWriter> make_surface_writer(const std::filesystem::path& run_dir, SurfaceMesh mesh,
                                                 const Attributes& attributes,
                                                 const std::vector<double>& resume_times) {
  return std::make_unique<SurfaceWriter>(run_dir, std::move(mesh), attributes, resume_times);
}

}  // namespace aerolbm
