// The 2D surface output: RUN/surface/surface_000000.csv, ... one file per frame, one line per outline point.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <system_error>

#include "src/io/atomic_file.hpp"
#include "src/io/number_format.hpp"
#include "src/io/surface_values.hpp"
#include "src/io/surface_writer.hpp"

namespace aerolbm {
namespace {

class SurfaceCsvWriter final : public FieldWriter {
 public:
  SurfaceCsvWriter(const std::filesystem::path& run_dir, SurfaceMesh mesh, const std::vector<double>& resume_times)
      : run_dir_(run_dir), mesh_(std::move(mesh)) {
    check_surface_mesh(mesh_);
    create_output_folder(run_dir_ / "surface");
    counter_ = std::int64_t(resumed_frames(run_dir_, resume_times, file_name, "surface").size());
    remove_frame_files(run_dir_ / "surface", "surface_", ".csv", counter_);
  }

  std::unique_ptr<EncodedFrame> encode(const FrameData& frame, std::int64_t number) override {
    const SurfaceValues v = surface_values(mesh_, frame.fields);
    std::string text = "# step: " + std::to_string(frame.step) + "\n# time: " + format_double(frame.time, 9) +
                       " (convective times)\n"
                       "# x, y: surface point (reference lengths); nx, ny: outward unit normal\n"
                       "# Cp = (p - p_inf)/(0.5 rho U^2) one cell out along the normal\n"
                       "# Cf = |tau_w|/(0.5 rho U^2), signed as the wall shear's x component (negative where the "
                       "flow next to the wall runs upstream); Cf_x, Cf_y: the wall shear vector over 0.5 rho U^2\n"
                       "x,y,nx,ny,Cp,Cf,Cf_x,Cf_y\n";
    for (std::size_t p = 0; p < mesh_.points.size(); ++p) {
      const float sx = v.shear[3 * p], sy = v.shear[3 * p + 1];
      const double cf = sx < 0 ? -double(v.cf[p]) : double(v.cf[p]);
      for (double x : {mesh_.points[p][0], mesh_.points[p][1], mesh_.normals[p][0], mesh_.normals[p][1]})
        text += format_double(x, 9) + ",";
      text += format_double(v.cp[p], 9) + "," + format_double(cf, 9) + "," + format_double(sx, 9) + "," +
              format_double(sy, 9) + "\n";
    }
    auto e = std::make_unique<EncodedFrame>();
    e->number = number;
    e->time = frame.time;
    e->path = run_dir_ / file_name(number);
    e->tmp = e->path.string() + ".tmp";
    std::FILE* f = std::fopen(e->tmp.c_str(), "wb");
    const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool closed = f && std::fclose(f) == 0;
    if (!ok || !closed) {
      std::error_code ignored;
      std::filesystem::remove(e->tmp, ignored);
      throw std::runtime_error("cannot write '" + e->path.string() + "'");
    }
    e->bytes = text.size();
    return e;
  }

  void commit(EncodedFrame& e) override {
    if (e.number != counter_)
      throw std::logic_error("surface frame " + std::to_string(e.number) + " committed out of order");
    rename_into_place(e.tmp, e.path);
    e.committed = true;
    count_bytes(e.bytes);
    ++counter_;
  }

  std::int64_t frames() const override { return counter_; }

 protected:
  std::vector<FieldView> fields_of(const Frame& frame) const override { return surface_fields_of(frame); }

 private:
  static std::string file_name(std::int64_t number) { return "surface/surface_" + frame_number(number) + ".csv"; }

  std::filesystem::path run_dir_;
  SurfaceMesh mesh_;
  std::int64_t counter_ = 0;
};

}  // namespace

std::unique_ptr<FieldWriter> make_surface_csv_writer(const std::filesystem::path& run_dir, SurfaceMesh mesh,
                                                     const std::vector<double>& resume_times) {
  return std::make_unique<SurfaceCsvWriter>(run_dir, std::move(mesh), resume_times);
}

}  // namespace aerolbm
