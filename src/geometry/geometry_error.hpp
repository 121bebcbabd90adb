#pragma once
// Bad geometry input: a NACA code, a Selig or STL file that cannot be read or is not a usable body, a wing whose
// keys do not make a wing. The message names the file (and line) or the geometry key, what is wrong and what to do;
// like every InputError it ends a command with exit status 2 (src/app/exit_status.hpp).
// Its own type so that src/geometry needs nothing of src/case to report bad input.
#include "src/util/input_error.hpp"

namespace aerolbm {

class GeometryError : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace aerolbm
