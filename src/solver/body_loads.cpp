#include "src/solver/body_loads.hpp"

#include <stdexcept>

#include "src/io/atomic_file.hpp"
#include "src/io/number_format.hpp"
#include "src/solver/refined_levels.hpp"

namespace aerolbm {

LoadIntegrator::LoadIntegrator(const DomainData& d, const ForceReference& ref, double u_ref)
    : ref_(ref), q_(0.5 * u_ref * u_ref) {
  if (!(ref.length > 0) || !(ref.area > 0) || ref.span_axis < 0 || ref.span_axis > 2)
    throw std::invalid_argument("LoadIntegrator: reference length and area must be > 0 and the span axis 0..2");
  const std::int64_t n[3] = {d.nx, d.ny, d.nz};
  layers_ = int(n[ref.span_axis]);
  arm_.reserve(d.wall_cells.size());
  slice_.reserve(d.wall_cells.size());
  for (const std::int64_t c : d.wall_cells) {
    const std::int64_t x[3] = {c % d.nx, (c / d.nx) % d.ny, c / (d.nx * d.ny)};
    arm_.push_back({x[0] + 0.5 - ref.moment_point[0], x[1] + 0.5 - ref.moment_point[1],
                    x[2] + 0.5 - ref.moment_point[2]});
    slice_.push_back(int(x[ref.span_axis]));
  }
}

BodyLoads LoadIntegrator::loads(const std::vector<double>& f) const {
  const std::size_t rows = arm_.size();
  if (f.size() != 3 * rows) throw std::invalid_argument("LoadIntegrator: per-cell forces do not match the wall rows");
  BodyLoads l;
  for (std::size_t r = 0; r < rows; ++r) {
    const double F[3] = {f[r], f[rows + r], f[2 * rows + r]};
    const auto& a = arm_[r];
    for (int k = 0; k < 3; ++k) l.force[k] += F[k];
    l.moment[0] += a[1] * F[2] - a[2] * F[1];
    l.moment[1] += a[2] * F[0] - a[0] * F[2];
    l.moment[2] += a[0] * F[1] - a[1] * F[0];
  }
  const double qs = q_ * ref_.area, b = ref_.area / ref_.length;
  for (int k = 0; k < 3; ++k) l.coefficients[k] = l.force[k] / qs;
  l.moment_coefficients[0] = l.moment[0] / (qs * b);
  l.moment_coefficients[1] = l.moment[1] / (qs * b);
  l.moment_coefficients[2] = -l.moment[2] / (qs * ref_.length);
  return l;
}

std::vector<SpanSlice> LoadIntegrator::spanwise(const std::vector<double>& f) const {
  const std::size_t rows = arm_.size();
  if (f.size() != 3 * rows) throw std::invalid_argument("LoadIntegrator: per-cell forces do not match the wall rows");
  std::vector<SpanSlice> s(static_cast<std::size_t>(layers_));
  std::vector<bool> used(static_cast<std::size_t>(layers_), false);
  for (std::size_t r = 0; r < rows; ++r) {
    auto& sl = s[std::size_t(slice_[r])];
    used[std::size_t(slice_[r])] = true;
    sl.force[0] += f[r];
    sl.force[1] += f[rows + r];
    sl.force[2] += f[2 * rows + r];
  }
  std::vector<SpanSlice> out;
  for (int k = 0; k < layers_; ++k) {
    if (!used[std::size_t(k)]) continue;
    SpanSlice sl = s[std::size_t(k)];
    sl.position = (k + 0.5 - ref_.moment_point[ref_.span_axis]) / ref_.length;
    // One layer is one cell of span: per unit span over q·c̄.
    sl.cl_c = sl.force[1] / (q_ * ref_.length);
    sl.cd_c = sl.force[0] / (q_ * ref_.length);
    out.push_back(sl);
  }
  return out;
}

std::vector<std::string> LoadIntegrator::csv_columns(int dims) {
  if (dims == 2) return {"Mz", "Cpitch"};
  return {"Mx", "My", "Mz", "Croll", "Cyaw", "Cpitch"};
}

std::vector<double> LoadIntegrator::csv_values(const BodyLoads& l, int dims) {
  if (dims == 2) return {l.moment[2], l.moment_coefficients[2]};
  return {l.moment[0], l.moment[1], l.moment[2],
          l.moment_coefficients[0], l.moment_coefficients[1], l.moment_coefficients[2]};
}

void write_spanwise_csv(const std::string& path, std::int64_t step, double time, const std::vector<SpanSlice>& s) {
  std::string text = "# step: " + std::to_string(step) + "\n# time: " + format_double(time, 9) +
                     "\n# span: slice centre in reference lengths from the moment point; force in lattice units; "
                     "cl_c = Fy/(q c_ref dz), cd_c = Fx/(q c_ref dz) per cell of span\nspan,Fx,Fy,Fz,cl_c,cd_c\n";
  for (const auto& sl : s) {
    text += format_double(sl.position, 9);
    for (double v : {sl.force[0], sl.force[1], sl.force[2], sl.cl_c, sl.cd_c}) {
      text += ',';  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "," + std::string at -O3
      text += format_double(v, 9);
    }
    text += "\n";
  }
  write_file_atomically(path, text);
}

BodyLoadIntegrator body_load_integrator(const Backend& backend, const DomainData& level0, const ForceReference& ref,
                                        int dims, double u_ref) {
  const auto* levels = dynamic_cast<const RefinedLevels*>(&backend);
  const int l = levels ? levels->body_level() : 0;
  if (l == 0) return {LoadIntegrator(level0, ref, u_ref), 1.0, 1.0};
  const DomainData& d = levels->domain(l);
  const double k = double(std::int64_t(1) << l);
  ForceReference r = ref;
  r.length *= k;
  r.area *= dims == 3 ? k * k : k;
  for (int a = 0; a < 3; ++a) r.moment_point[a] = r.moment_point[a] * k - double(d.origin[a]);
  if (dims == 2) r.moment_point[2] = 0.5;
  return {LoadIntegrator(d, r, u_ref), dims == 3 ? 1.0 / (k * k) : 1.0 / k,
          dims == 3 ? 1.0 / (k * k * k) : 1.0 / (k * k)};
}

}  // namespace aerolbm
