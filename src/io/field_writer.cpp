#include "src/io/field_writer.hpp"

#include <stdexcept>
#include <system_error>

namespace aerolbm {

FieldWriter::~FieldWriter() = default;

void create_output_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // Since C++20 (P1164) an existing non-directory at `dir` is an error here too, not a silent success.
  if (ec) throw std::runtime_error("cannot create output folder '" + dir.string() + "': " + ec.message());
}

}  // namespace aerolbm
