#pragma once
// The pieces of the HDF5 frame output (layout: src/io/hdf5_writer.cpp) that the one-process writer and the
// collective MPI writer (src/io/hdf5_collective.cpp) share, so that both write the same file.
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "src/io/frame.hpp"
#include "src/io/frame_fields.hpp"
#include "src/io/hdf5_util.hpp"
#include "src/io/xdmf_writer.hpp"

namespace aerolbm {

// Root attributes and datasets of one frame file, into the open `file`. `fields` cover `box` of the grid (the
// whole grid for one process: written as one piece; an MPI rank's block: written as a hyperslab of the same
// datasets). dxpl: the data transfer property list (H5P_DEFAULT, or collective MPI-IO). Under MPI-IO every rank
// calls this with the same grid, attributes, step, time and field list.
void write_frame_contents(const h5::File& f, hid_t file, const GridInfo& grid, const Attributes& attributes,
                          std::int64_t step, double time, const std::vector<FieldView>& fields, const GridBox& box,
                          hid_t dxpl);

// The index's description of a frame's fields.
std::vector<XdmfField> xdmf_fields(const std::vector<FieldView>& fields);

// The frame files of a run and their index (RUN/fields.h5, RUN/fields.xdmf). Constructing it continues a series
// (`resume_times`: the frames the checkpoint counts), removes frame files past it and unfinished temp files, and
// writes the index.
class Hdf5Series {
 public:
  Hdf5Series(const std::filesystem::path& run_dir, const GridInfo& grid, const Attributes& attributes,
             const std::vector<double>& resume_times);
  // Frames listed, and the path of frame file `number`: RUN/fields/frame_000123.h5.
  std::int64_t frames() const { return std::int64_t(frames_.size()); }
  std::filesystem::path frame_path(std::int64_t number) const { return run_dir_ / frame_file(number); }
  std::filesystem::path next_path() const { return frame_path(frames()); }
  // The next frame file is complete and in place: list it in the index (rewritten atomically). On failure the
  // frame is not listed, and the next frame takes its number. Returns the bytes of the index files written.
  std::uint64_t add(double time, const std::vector<XdmfField>& fields);
  const GridInfo& grid() const { return grid_; }
  const Attributes& attributes() const { return attributes_; }

 private:
  std::uint64_t write_index() const;
  XdmfFrame read_back(std::int64_t number) const;
  static std::string frame_file(std::int64_t number) { return "fields/frame_" + frame_number(number) + ".h5"; }

  std::filesystem::path run_dir_;
  GridInfo grid_;
  Attributes attributes_;
  std::vector<XdmfFrame> frames_;  // finished frames, for regenerating fields.h5 and fields.xdmf
};

}  // namespace aerolbm
