#include "src/io/pvd_writer.hpp"

#include "src/io/atomic_file.hpp"
#include "src/io/number_format.hpp"

namespace aerolbm {

std::string pvd_document(const std::vector<PvdEntry>& entries) {
  std::string x;
  x += "<?xml version=\"1.0\"?>\n";
  x += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  x += "  <Collection>\n";
  for (const PvdEntry& e : entries)
    x += "    <DataSet timestep=\"" + format_double(e.time) + "\" group=\"\" part=\"0\" file=\"" + e.file + "\"/>\n";
  x += "  </Collection>\n";
  x += "</VTKFile>\n";
  return x;
}

std::size_t write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries) {
  const std::string doc = pvd_document(entries);
  write_file_atomically(path, doc);
  return doc.size();
}

}  // namespace aerolbm
