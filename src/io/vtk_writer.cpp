// RUN/vtk/fields_000123.vti + RUN/fields.pvd. Each .vti is a vtkImageData with point arrays named like the
// HDF5 datasets (cell arrays in refined runs, with the .vthb index over the levels: field_writer.hpp's VtkLayout),
// plus field data (step, TimeValue, run attributes) so a single file opened alone explains itself.
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkDataSetAttributes.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkCellData.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>
#include <vtkTypeInt64Array.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLImageDataWriter.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "src/io/atomic_file.hpp"
#include "src/io/field_writer.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/pvd_writer.hpp"

namespace aerolbm {
namespace {

// With an ErrorEvent observer VTK hands the message to us instead of printing it, so it ends up in the
// exception a person reads. VTK prefixes "ERROR: In <source>, line N\n<class> (0x...): "; only the rest is kept.
void collect_vtk_error(vtkObject*, unsigned long, void* client, void* call) {
  auto* out = static_cast<std::string*>(client);
  if (!call) return;
  std::string msg = static_cast<const char*>(call);
  const std::size_t at = msg.find("): ");
  if (at != std::string::npos) msg.erase(0, at + 3);
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  if (!out->empty()) *out += "; ";
  *out += msg;
}

// The pipeline executive repeats every writer failure as a generic "returned failure for request" dump.
void ignore_vtk_error(vtkObject*, unsigned long, void*, void*) {}

class VtkWriter final : public FieldWriter {
 public:
  VtkWriter(const std::filesystem::path& run_dir, const GridInfo& grid, const Attributes& attributes,
            const std::vector<double>& resume_times, const VtkLayout& layout);
  std::unique_ptr<EncodedFrame> encode(const FrameData& frame, std::int64_t number) override;
  void commit(EncodedFrame& frame) override;
  // Each frame's writer compresses on one core (LZ4); frames go to several at once.
  int max_concurrent_encodes() const override {
    return int(std::clamp(std::thread::hardware_concurrency() / 4, 2u, 4u));
  }
  std::int64_t frames() const override { return counter_; }

 protected:
  std::vector<FieldView> fields_of(const Frame& frame) const override { return present_fields(frame, grid_); }

 private:
  void add_run_attributes(vtkFieldData* fd) const;
  std::string file_name(std::int64_t number) const { return "vtk/fields_" + frame_number(number) + ".vti"; }
  std::string amr_name(std::int64_t number) const { return "vtk/fields_" + frame_number(number) + ".vthb"; }
  std::string amr_index(std::int64_t number) const;

  std::filesystem::path run_dir_;
  GridInfo grid_;
  Attributes attributes_;
  std::int64_t counter_ = 0;
  std::vector<PvdEntry> entries_;  // finished frames, for regenerating the .pvd
  VtkLayout layout_;
  std::vector<unsigned char> ghost_;   // vtkGhostType per cell: HIDDENCELL where another level shows the flow
};

VtkWriter::VtkWriter(const std::filesystem::path& run_dir, const GridInfo& grid, const Attributes& attributes,
                     const std::vector<double>& resume_times, const VtkLayout& layout)
    : run_dir_(run_dir), grid_(grid), attributes_(attributes), layout_(layout) {
  check_grid(grid);
  if (!layout_.shown_elsewhere.empty()) {
    if (std::int64_t(layout_.shown_elsewhere.size()) != grid.cells() || !layout_.cell_data)
      throw std::logic_error("VTK writer: the hidden cells must be one per cell, with cell data");
    ghost_.resize(layout_.shown_elsewhere.size());
    for (std::size_t n = 0; n < ghost_.size(); ++n)
      ghost_[n] = layout_.shown_elsewhere[n] ? (unsigned char)(vtkDataSetAttributes::HIDDENCELL) : 0;
  }
  create_output_folder(run_dir_ / "vtk");
  entries_ = resumed_frames(run_dir_, resume_times, [this](std::int64_t k) { return file_name(k); }, "frame");
  counter_ = std::int64_t(entries_.size());
  // Frames past the continuation point, or from an earlier run in this folder, and unfinished temp files go;
  // the .pvd is replaced so that it lists exactly the frames kept.
  remove_frame_files(run_dir_ / "vtk", "fields_", ".vti", counter_);
  remove_frame_files(run_dir_ / "vtk", "fields_", ".vthb", layout_.amr_levels.empty() ? 0 : counter_);
  write_pvd(run_dir_ / "fields.pvd", entries_);
  if (!layout_.amr_levels.empty())
    for (std::int64_t k = 0; k < counter_; ++k) write_file_atomically(run_dir_ / amr_name(k), amr_index(k));
}

// The overlapping AMR index of frame `number` (VTK's XML .vthb): per level its spacing and its one block, the
// level's grid as a box of that level's cells (amr_box: first and last cell along x, y, z) and its .vti.
std::string VtkWriter::amr_index(std::int64_t number) const {
  auto num = [](double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", v);
    return std::string(b);
  };
  std::string x = "<?xml version=\"1.0\"?>\n<VTKFile type=\"vtkOverlappingAMR\" version=\"1.1\" "
                  "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  x += "  <vtkOverlappingAMR origin=\"" + num(layout_.amr_origin[0]) + " " + num(layout_.amr_origin[1]) + " " +
       num(layout_.amr_origin[2]) + "\" grid_description=\"" + (layout_.dims == 2 ? "XY" : "XYZ") + "\">\n";
  for (std::size_t l = 0; l < layout_.amr_levels.size(); ++l) {
    const VtkAmrLevel& v = layout_.amr_levels[l];
    x += "    <Block level=\"" + std::to_string(l) + "\" spacing=\"" + num(v.spacing[0]) + " " + num(v.spacing[1]) +
         " " + num(v.spacing[2]) + "\">\n      <DataSet index=\"0\" amr_box=\"";
    for (int a = 0; a < 3; ++a) {
      const bool flat = a >= layout_.dims;
      x += std::to_string(flat ? 0 : v.lo[a]) + " " + std::to_string(flat ? 0 : v.lo[a] + v.n[a] - 1) + (a < 2 ? " " : "");
    }
    x += "\" file=\"" + v.folder + "/fields_" + frame_number(number) + ".vti\"/>\n    </Block>\n";
  }
  x += "  </vtkOverlappingAMR>\n</VTKFile>\n";
  return x;
}

void VtkWriter::add_run_attributes(vtkFieldData* fd) const {
  for (const auto& [name, value] : attributes_.numbers) {
    vtkNew<vtkDoubleArray> a;
    a->SetName(name.c_str());
    a->InsertNextValue(value);
    fd->AddArray(a);
  }
  for (const auto& [name, value] : attributes_.strings) {
    vtkNew<vtkStringArray> a;
    a->SetName(name.c_str());
    a->InsertNextValue(value);
    fd->AddArray(a);
  }
}

// The .vti under its temp name. Several frames may be encoded at once (separate VTK objects; the writer's state
// is only read here).
std::unique_ptr<EncodedFrame> VtkWriter::encode(const FrameData& frame, std::int64_t number) {
  const std::vector<FieldView>& fields = frame.fields;
  auto e = std::make_unique<EncodedFrame>();
  e->number = number;
  e->time = frame.time;
  e->path = run_dir_ / file_name(number);
  e->tmp = e->path.string() + ".tmp";
  const std::filesystem::path& path = e->path;
  const std::filesystem::path& tmp = e->tmp;

  vtkNew<vtkImageData> image;
  // Cell data: one more point than cells along each axis a grid spans (a 2D grid stays one point thick), the
  // corner half a cell before the first cell's centre.
  const bool cells = layout_.cell_data;
  const std::int64_t n[3] = {grid_.nx, grid_.ny, grid_.nz};
  int ext[3];
  double origin[3];
  for (int a = 0; a < 3; ++a) {
    const bool spans = cells && (a < layout_.dims && n[a] >= 1) && !(a == 2 && n[2] == 1);
    ext[a] = static_cast<int>(spans ? n[a] : n[a] - 1);
    origin[a] = grid_.origin[std::size_t(a)] - (spans ? 0.5 * grid_.spacing[std::size_t(a)] : 0.0);
  }
  image->SetExtent(0, ext[0], 0, ext[1], 0, ext[2]);
  image->SetOrigin(origin);
  image->SetSpacing(grid_.spacing.data());
  vtkDataSetAttributes* data = cells ? static_cast<vtkDataSetAttributes*>(image->GetCellData())
                                     : static_cast<vtkDataSetAttributes*>(image->GetPointData());
  for (const FieldView& f : fields) {
    // The arrays borrow the frame's memory (save = 1: VTK never frees or modifies it while writing), which
    // avoids a second copy of every 3D field on the output thread.
    if (f.type == FieldType::Float16) throw std::logic_error("VTK output takes Float32 fields, not Float16");
    if (f.type == FieldType::UInt8) {
      vtkNew<vtkUnsignedCharArray> a;
      a->SetNumberOfComponents(f.components);
      a->SetArray(static_cast<unsigned char*>(const_cast<void*>(f.data)), static_cast<vtkIdType>(f.values), 1);
      a->SetName(f.name.c_str());
      data->AddArray(a);
    } else {
      vtkNew<vtkFloatArray> a;
      a->SetNumberOfComponents(f.components);
      a->SetArray(static_cast<float*>(const_cast<void*>(f.data)), static_cast<vtkIdType>(f.values), 1);
      a->SetName(f.name.c_str());
      data->AddArray(a);
    }
  }
  if (data->GetArray("velocity")) data->SetActiveVectors("velocity");
  if (!ghost_.empty()) {
    vtkNew<vtkUnsignedCharArray> a;
    a->SetArray(const_cast<unsigned char*>(ghost_.data()), static_cast<vtkIdType>(ghost_.size()), 1);
    a->SetName(vtkDataSetAttributes::GhostArrayName());
    data->AddArray(a);
  }

  vtkFieldData* fd = image->GetFieldData();
  add_run_attributes(fd);
  vtkNew<vtkTypeInt64Array> step;
  step->SetName("step");
  step->InsertNextValue(frame.step);
  fd->AddArray(step);
  vtkNew<vtkDoubleArray> time;  // "TimeValue" is the name ParaView's XML readers take as the dataset time
  time->SetName("TimeValue");
  time->InsertNextValue(frame.time);
  fd->AddArray(time);

  std::string vtk_messages;
  vtkNew<vtkCallbackCommand> on_error;
  on_error->SetCallback(collect_vtk_error);
  on_error->SetClientData(&vtk_messages);

  vtkNew<vtkCallbackCommand> on_pipeline_error;
  on_pipeline_error->SetCallback(ignore_vtk_error);

  vtkNew<vtkXMLImageDataWriter> writer;
  writer->AddObserver(vtkCommand::ErrorEvent, on_error);
  writer->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, on_pipeline_error);
  writer->SetInputData(image);
  writer->SetFileName(tmp.c_str());
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw binary: base64 would cost a third more disk
  // LZ4: ten times faster than zlib at a modest size cost; output must not hold the solver up.
  writer->SetCompressorTypeToLZ4();
  writer->SetHeaderTypeToUInt64();  // block sizes beyond 4 GiB for large 3D fields
  const int ok = writer->Write();
  const unsigned long code = writer->GetErrorCode();
  if (ok != 1 || code != vtkErrorCode::NoError) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    std::string why = code != vtkErrorCode::NoError ? vtkErrorCode::GetStringFromErrorCode(code) : "Write() failed";
    if (!vtk_messages.empty()) why += " (" + vtk_messages + ")";
    throw std::runtime_error("cannot write '" + path.string() + "': VTK: " + why);
  }
  std::error_code ec;
  e->bytes = std::filesystem::file_size(tmp, ec);
  return e;
}

// Synced under the temp name and renamed, so a .vti with the final name is always complete; then the .pvd.
void VtkWriter::commit(EncodedFrame& e) {
  if (e.number != counter_) throw std::logic_error("VTK frame " + std::to_string(e.number) + " committed out of order");
  rename_into_place(e.tmp, e.path);
  e.committed = true;
  entries_.push_back({e.time, file_name(e.number)});
  try {
    count_bytes(e.bytes + write_pvd(run_dir_ / "fields.pvd", entries_));
  } catch (...) {
    entries_.pop_back();  // not listed: the next frame takes its number and replaces the file
    throw;
  }
  if (!layout_.amr_levels.empty()) {
    const std::string index = amr_index(e.number);
    write_file_atomically(run_dir_ / amr_name(e.number), index);
    count_bytes(index.size());
  }
  ++counter_;
}

}  // namespace

std::unique_ptr<FieldWriter> make_vtk_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                             const Attributes& attributes, const std::vector<double>& resume_times,
                                             const VtkLayout& layout) {
  return std::make_unique<VtkWriter>(run_dir, grid, attributes, resume_times, layout);
}

}  // namespace aerolbm
