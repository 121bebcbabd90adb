// RUN/vtk/fields_000123.vti + RUN/fields.pvd. Each .vti is a vtkImageData with point arrays named like the
// HDF5 datasets, plus field data (step, TimeValue, run attributes) so a single file opened alone explains itself.
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>
#include <vtkTypeInt64Array.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLImageDataWriter.h>

#include <algorithm>
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
            const std::vector<double>& resume_times);
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

  std::filesystem::path run_dir_;
  GridInfo grid_;
  Attributes attributes_;
  std::int64_t counter_ = 0;
  std::vector<PvdEntry> entries_;  // finished frames, for regenerating the .pvd
};

VtkWriter::VtkWriter(const std::filesystem::path& run_dir, const GridInfo& grid, const Attributes& attributes,
                     const std::vector<double>& resume_times)
    : run_dir_(run_dir), grid_(grid), attributes_(attributes) {
  check_grid(grid);
  create_output_folder(run_dir_ / "vtk");
  for (double t : resume_times) {
    const std::string file = file_name(counter_);
    if (!std::filesystem::exists(run_dir_ / file))
      throw std::runtime_error("cannot continue the run: frame file '" + (run_dir_ / file).string() +
                               "' is missing (the checkpoint counts it as written)");
    entries_.push_back({t, file});
    ++counter_;
  }
  // Frames past the continuation point, or from an earlier run in this folder, and unfinished temp files go;
  // the .pvd is replaced so that it lists exactly the frames kept.
  remove_frame_files(run_dir_ / "vtk", "fields_", ".vti", counter_);
  write_pvd(run_dir_ / "fields.pvd", entries_);
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
  image->SetExtent(0, static_cast<int>(grid_.nx - 1), 0, static_cast<int>(grid_.ny - 1), 0,
                   static_cast<int>(grid_.nz - 1));
  image->SetOrigin(grid_.origin.data());
  image->SetSpacing(grid_.spacing.data());
  for (const FieldView& f : fields) {
    // The arrays borrow the frame's memory (save = 1: VTK never frees or modifies it while writing), which
    // avoids a second copy of every 3D field on the output thread.
    if (f.type == FieldType::Float16) throw std::logic_error("VTK output takes Float32 fields, not Float16");
    if (f.type == FieldType::UInt8) {
      vtkNew<vtkUnsignedCharArray> a;
      a->SetNumberOfComponents(f.components);
      a->SetArray(static_cast<unsigned char*>(const_cast<void*>(f.data)), static_cast<vtkIdType>(f.values), 1);
      a->SetName(f.name.c_str());
      image->GetPointData()->AddArray(a);
    } else {
      vtkNew<vtkFloatArray> a;
      a->SetNumberOfComponents(f.components);
      a->SetArray(static_cast<float*>(const_cast<void*>(f.data)), static_cast<vtkIdType>(f.values), 1);
      a->SetName(f.name.c_str());
      image->GetPointData()->AddArray(a);
    }
  }
  if (image->GetPointData()->GetArray("velocity")) image->GetPointData()->SetActiveVectors("velocity");

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
  ++counter_;
}

}  // namespace

std::unique_ptr<FieldWriter> make_vtk_writer(const std::filesystem::path& run_dir, const GridInfo& grid,
                                             const Attributes& attributes, const std::vector<double>& resume_times) {
  return std::make_unique<VtkWriter>(run_dir, grid, attributes, resume_times);
}

}  // namespace aerolbm
