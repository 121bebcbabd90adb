#include "src/io/forces_csv.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "src/io/number_format.hpp"

namespace aerolbm {
namespace {

// A newline inside a header value would start a line that is neither a comment nor data.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

ForcesCsv::ForcesCsv(std::filesystem::path path, const std::vector<std::pair<std::string, std::string>>& header,
                     int dims)
    : path_(std::move(path)), dims_(dims) {
  if (dims != 2 && dims != 3)
    throw std::invalid_argument("ForcesCsv: dims must be 2 or 3, got " + std::to_string(dims));
  file_.reset(std::fopen(path_.c_str(), "w"));
  if (!file_)
    throw std::runtime_error("cannot create '" + path_.string() + "': " + std::strerror(errno));
  std::string text;
  for (const auto& [key, value] : header) text += "# " + one_line(key) + ": " + one_line(value) + "\n";
  text += dims == 2 ? "step,time,Fx,Fy,Cd,Cl\n" : "step,time,Fx,Fy,Fz,Cd,Cl,Cs\n";
  put(text);
}

void ForcesCsv::append(std::int64_t step, double time, const std::array<double, 3>& force, double cd, double cl,
                       double cs) {
  // Assemble the whole line first so a failure can never leave half a line in the stdio buffer.
  std::string line = format_int(step);
  const auto add = [&line](double v) {
    line += ',';
    line += format_double(v, 9);
  };
  add(time);
  add(force[0]);
  add(force[1]);
  if (dims_ == 3) add(force[2]);
  add(cd);
  add(cl);
  if (dims_ == 3) add(cs);
  line += '\n';
  put(line);
}

void ForcesCsv::put(const std::string& text) {
  if (!file_) throw std::runtime_error("cannot write '" + path_.string() + "': file closed after an earlier error");
  errno = 0;
  const bool ok = std::fwrite(text.data(), 1, text.size(), file_.get()) == text.size() && std::fflush(file_.get()) == 0;
  if (!ok) {
    const int err = errno;
    // After a failed flush stdio may retry the stale buffer later and produce a torn line; stop writing instead.
    file_.reset();
    throw std::runtime_error("cannot write '" + path_.string() + "': " + (err ? std::strerror(err) : "write failed"));
  }
}

}  // namespace aerolbm
