#pragma once
// RUN/fields.xdmf: the index that lets ParaView/VisIt open fields.h5 as a time series. It is regenerated from
// the list of finished frames and replaced atomically, so it never names a group that is not fully written.
#include <filesystem>
#include <string>
#include <vector>

#include "src/io/frame_fields.hpp"

namespace aerolbm {

struct XdmfField {
  std::string name;  // dataset name inside the frame group
  int components = 1;
  FieldType type = FieldType::Float32;
};

struct XdmfFrame {
  std::string group;  // "frame_000123": the grid's name
  double time = 0;
  std::vector<XdmfField> fields;
  std::string data;   // where the datasets are, relative to the .xdmf: "fields/frame_000123.h5:/"
};

// Float16 datasets (output.precision: fp16) are declared Float, Precision 4: XDMF has no 16-bit float, and a
// reader asking HDF5 for 4-byte floats gets the values converted (exactly) by the library.
// XDMF 2 document: a temporal collection of uniform 3DCoRectMesh grids (dimensions and geometry in z y x order,
// as XDMF expects for C-ordered HDF5 data), node-centred attributes pointing at <frame.data><field>. Paths are
// relative to the .xdmf so the run folder can be moved.
std::string xdmf_document(const GridInfo& grid, const std::vector<XdmfFrame>& frames);

// Replaces the file atomically; returns its size in bytes.
std::size_t write_xdmf(const std::filesystem::path& path, const GridInfo& grid, const std::vector<XdmfFrame>& frames);

}  // namespace aerolbm
