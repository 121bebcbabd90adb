#include "src/io/xdmf_writer.hpp"

#include "src/io/atomic_file.hpp"
#include "src/io/number_format.hpp"

namespace aerolbm {

std::string xdmf_document(const GridInfo& g, const std::vector<XdmfFrame>& frames) {
  const std::string dims = format_int(g.nz) + " " + format_int(g.ny) + " " + format_int(g.nx);
  const std::string origin =
      format_double(g.origin[2]) + " " + format_double(g.origin[1]) + " " + format_double(g.origin[0]);
  const std::string spacing =
      format_double(g.spacing[2]) + " " + format_double(g.spacing[1]) + " " + format_double(g.spacing[0]);

  std::string x;
  x += "<?xml version=\"1.0\" ?>\n";
  x += "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n";
  x += "<Xdmf Version=\"2.0\">\n";
  x += "  <Domain>\n";
  x += "    <Grid Name=\"fields\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const XdmfFrame& f : frames) {
    x += "      <Grid Name=\"" + f.group + "\" GridType=\"Uniform\">\n";
    x += "        <Time Value=\"" + format_double(f.time) + "\"/>\n";
    x += "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" + dims + "\"/>\n";
    x += "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n";
    x += "          <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
         "Format=\"XML\">" + origin + "</DataItem>\n";
    x += "          <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
         "Format=\"XML\">" + spacing + "</DataItem>\n";
    x += "        </Geometry>\n";
    for (const XdmfField& a : f.fields) {
      const bool vector = a.components == 3;
      const bool u8 = a.type == FieldType::UInt8;
      x += "        <Attribute Name=\"" + a.name + "\" AttributeType=\"" + (vector ? "Vector" : "Scalar") +
           "\" Center=\"Node\">\n";
      x += "          <DataItem Dimensions=\"" + dims + (vector ? " 3" : "") + "\" NumberType=\"" +
           (u8 ? "UChar" : "Float") + "\" Precision=\"" + (u8 ? "1" : "4") + "\" Format=\"HDF\">" + f.data +
           a.name + "</DataItem>\n";
      x += "        </Attribute>\n";
    }
    x += "      </Grid>\n";
  }
  x += "    </Grid>\n";
  x += "  </Domain>\n";
  x += "</Xdmf>\n";
  return x;
}

std::size_t write_xdmf(const std::filesystem::path& path, const GridInfo& grid, const std::vector<XdmfFrame>& frames) {
  const std::string doc = xdmf_document(grid, frames);
  write_file_atomically(path, doc);
  return doc.size();
}

}  // namespace aerolbm
