#include "src/solver/mean_frame.hpp"

#include <stdexcept>

#include "kernels/physics/field_averages.hpp"
#include "kernels/physics/frame_fields.hpp"
#include "src/io/atomic_file.hpp"
#include "src/io/frame_fields.hpp"
#include "src/solver/frame_builder.hpp"

namespace aerolbm {

namespace fa = field_averages;

MeanFrame build_mean_frame(const DomainData& d, const FieldAverages& a, double u_ref) {
  const std::int64_t cells = d.cells();
  const std::size_t n = std::size_t(fa::kQuantities) * std::size_t(cells);
  if (a.mean.size() != n || a.m2.size() != n)
    throw std::invalid_argument("the mean fields' statistics hold " + std::to_string(a.mean.size()) +
                                " values, expected " + std::to_string(n) + " (4 per cell)");
  if (a.samples <= 0) throw std::invalid_argument("the mean fields have no sample");
  // The frames' scales (kernels/physics/frame_fields.hpp); the cell size does not enter (no derivatives).
  const frame_fields::Scales s = frame_fields::make_scales(u_ref, 1.0);
  const double samples = double(a.samples);
  MeanFrame f;
  f.mask = frame_mask(d);
  f.velocity.resize(3 * std::size_t(cells));
  f.velocity_rms.resize(3 * std::size_t(cells));
  f.pressure.resize(std::size_t(cells));
  f.pressure_rms.resize(std::size_t(cells));
  for (std::int64_t c = 0; c < cells; ++c) {
    const bool solid = f.mask[std::size_t(c)] != 0;
    f.pressure[std::size_t(c)] = fa::mean_pressure(a.mean[std::size_t(c)], s.cp_scale, solid);
    f.pressure_rms[std::size_t(c)] = fa::rms(a.m2[std::size_t(c)], samples, s.cp_scale, solid);
    for (int k = 0; k < 3; ++k) {
      const std::size_t q = std::size_t(k + 1) * std::size_t(cells) + std::size_t(c);
      f.velocity[3 * std::size_t(c) + std::size_t(k)] = fa::mean_velocity(a.mean[q], s.inv_u, solid);
      f.velocity_rms[3 * std::size_t(c) + std::size_t(k)] = fa::rms(a.m2[q], samples, s.inv_u, solid);
    }
  }
  return f;
}

Attributes mean_attributes(Attributes a, const MeanWindow& w) {
  a.strings.push_back({"statistics", "time averages (velocity, pressure) and RMS fluctuations about them "
                                     "(velocity_rms, pressure_rms) over the samples of the averaging window"});
  a.numbers.push_back({"samples", double(w.samples)});
  a.numbers.push_back({"sample_every_steps", double(w.every)});
  a.numbers.push_back({"first_sample_step", double(w.first_step)});
  a.numbers.push_back({"last_sample_step", double(w.last_step)});
  a.numbers.push_back({"first_sample_time", w.first_time});
  a.numbers.push_back({"last_sample_time", w.last_time});
  a.numbers.push_back({"window_start_time", w.window_start_time});
  a.numbers.push_back({"restarted_from_step", double(w.restarted_from_step)});
  return a;
}

std::uint64_t write_mean_frame(const std::filesystem::path& run_dir, const GridInfo& grid,
                               const Attributes& attributes, const MeanFrame& frame, const MeanWindow& w,
                               const std::vector<std::string>& formats, FieldPrecision precision) {
  const std::filesystem::path dir = run_dir / "mean";
  create_output_folder(dir);
  const MeanFieldPointers p{frame.velocity.data(), frame.velocity_rms.data(), frame.pressure.data(),
                            frame.pressure_rms.data(), frame.mask.data()};
  FrameData data;
  data.step = w.last_step;
  data.time = w.last_time;
  data.fields = mean_fields(p, grid, data.time);
  std::uint64_t bytes = 0;
  for (const std::string& format : formats) {
    // A new series of one frame each time: an earlier run's mean frame in this folder is replaced.
    std::unique_ptr<FieldWriter> writer;
    if (format == "hdf5") writer = make_hdf5_writer(dir, grid, attributes, {}, precision);
    else if (format == "vtk") writer = make_vtk_writer(dir, grid, attributes, {});
    else continue;
    std::unique_ptr<EncodedFrame> e = writer->encode(data, 0);
    sync_file(e->tmp, e->path);
    writer->commit(*e);
    bytes += writer->bytes_written();
  }
  return bytes;
}

}  // namespace aerolbm
