#pragma once
// The fields of a Frame as the writers see them: one list, so that HDF5 dataset names, XDMF attributes and VTK
// array names cannot drift apart, and so that sizes are checked once before any byte is written.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/io/frame.hpp"

namespace aerolbm {

// Float16: IEEE binary16 bits (uint16 values), the HDF5 writer's form of a Float32 field under output.precision:
// fp16 (frames hold Float32 and UInt8 only).
enum class FieldType { Float32, UInt8, Float16 };

struct FieldView {
  std::string name;     // "velocity", "pressure", "density", "vorticity", "mask"
  std::string units;    // stored as the `units` attribute
  int components = 1;   // 1 or 3 (interleaved)
  FieldType type = FieldType::Float32;
  const void* data = nullptr;
  std::size_t values = 0;  // cells * components
};

// Throws std::invalid_argument unless nx, ny, nz >= 1 and origin/spacing are finite with spacing > 0.
void check_grid(const GridInfo& grid);

// The fields present in `frame`, in a fixed order. Throws std::invalid_argument (naming the field, the expected
// and the actual size) when an array does not match the grid, or when the time is not finite.
std::vector<FieldView> present_fields(const Frame& frame, const GridInfo& grid);

// Borrowed arrays of one frame (null: not present), each grid.cells() × components values, x fastest: frames
// computed on the GPU arrive like this, without a copy into a Frame.
struct FieldPointers {
  const float* velocity = nullptr;   // 3 per cell
  const float* pressure = nullptr;
  const float* density = nullptr;
  const float* vorticity = nullptr;  // vorticity_components per cell
  int vorticity_components = 1;
  const float* q_criterion = nullptr;
  const std::uint8_t* mask = nullptr;
};

// The same list as present_fields(Frame) gives, for borrowed arrays; `time` must be finite.
std::vector<FieldView> present_fields(const FieldPointers& p, const GridInfo& grid, double time);

// The fields of the mean frame (output.averages, RUN/mean/): the time averages under the names every frame uses,
// "velocity" (ū/U) and "pressure" (C̄p), so that ParaView's filters and `aerolbm compare` take them as they take a
// frame's, beside "velocity_rms" (u′/U per component) and "pressure_rms" (Cp′), the RMS fluctuations about the
// averages, and the mask. Each array grid.cells() × components values (null: not written).
struct MeanFieldPointers {
  const float* velocity = nullptr;      // 3 per cell
  const float* velocity_rms = nullptr;  // 3 per cell
  const float* pressure = nullptr;
  const float* pressure_rms = nullptr;
  const std::uint8_t* mask = nullptr;
};

std::vector<FieldView> mean_fields(const MeanFieldPointers& p, const GridInfo& grid, double time);

// Zero-padded frame counter, at least 6 digits: 123 -> "000123". Throws std::invalid_argument if negative.
std::string frame_number(std::int64_t counter);

}  // namespace aerolbm
