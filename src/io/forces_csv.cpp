#include "src/io/forces_csv.hpp"

#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <cstring>
#include <stdexcept>

#include "src/io/atomic_file.hpp"
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
                     int dims, const std::vector<std::string>& extra_columns)
    : path_(std::move(path)), dims_(dims), extra_(extra_columns.size()) {
  if (dims != 2 && dims != 3)
    throw std::invalid_argument("ForcesCsv: dims must be 2 or 3, got " + std::to_string(dims));
  file_.reset(std::fopen(path_.c_str(), "w"));
  if (!file_)
    throw std::runtime_error("cannot create '" + path_.string() + "': " + std::strerror(errno));
  std::string text;
  for (const auto& [key, value] : header) text += "# " + one_line(key) + ": " + one_line(value) + "\n";
  text += dims == 2 ? "step,time,Fx,Fy,Cd,Cl" : "step,time,Fx,Fy,Fz,Cd,Cl,Cs";
  for (const auto& c : extra_columns) text += "," + one_line(c);
  text += "\n";
  put(text);
}

ForcesCsv ForcesCsv::resume(std::filesystem::path path,
                            const std::vector<std::pair<std::string, std::string>>& header, int dims,
                            std::int64_t after_step, const std::vector<std::string>& extra_columns) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return ForcesCsv(std::move(path), header, dims, extra_columns);
  if (dims != 2 && dims != 3)
    throw std::invalid_argument("ForcesCsv: dims must be 2 or 3, got " + std::to_string(dims));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path.string() + "' to continue it");
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  std::string kept;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // a torn last line
    const std::string line = text.substr(start, end - start + 1);
    start = end + 1;
    if (line[0] == '#' || line.compare(0, 5, "step,") == 0) {
      kept += line;
      continue;
    }
    const std::size_t comma = line.find(',');
    const std::string first = line.substr(0, comma);
    if (comma == std::string::npos || first.empty() || first.find_first_not_of("0123456789") != std::string::npos)
      continue;
    if (std::stoll(first) <= after_step) kept += line;
  }
  write_file_atomically(path, kept);
  ForcesCsv csv(Reopen{}, std::move(path), dims, extra_columns.size());
  csv.file_.reset(std::fopen(csv.path_.c_str(), "a"));
  if (!csv.file_) throw std::runtime_error("cannot open '" + csv.path_.string() + "': " + std::strerror(errno));
  csv.good_size_ = static_cast<long long>(kept.size());
  return csv;
}

void ForcesCsv::append(std::int64_t step, double time, const std::array<double, 3>& force, double cd, double cl,
                       double cs, const std::vector<double>& extra) {
  if (extra.size() != extra_)
    throw std::invalid_argument("ForcesCsv: " + std::to_string(extra.size()) + " extra values for " +
                                std::to_string(extra_) + " extra columns");
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
  for (double v : extra) add(v);
  line += '\n';
  put(line);
}

void ForcesCsv::put(const std::string& text) {
  if (!file_) throw std::runtime_error("cannot write '" + path_.string() + "': file closed after an earlier error");
  errno = 0;
  const bool ok = std::fwrite(text.data(), 1, text.size(), file_.get()) == text.size() && std::fflush(file_.get()) == 0;
  if (!ok) {
    const int err = errno;
    // After a failed flush stdio may retry the stale buffer later and produce a torn line; stop writing instead,
    // and cut off whatever part of this text reached the file (closing first: the close may flush some more).
    file_.reset();
    if (::truncate(path_.c_str(), static_cast<off_t>(good_size_)) != 0) { /* nothing more to do */ }
    throw std::runtime_error("cannot write '" + path_.string() + "': " + (err ? std::strerror(err) : "write failed"));
  }
  good_size_ += static_cast<long long>(text.size());
}

}  // namespace aerolbm
