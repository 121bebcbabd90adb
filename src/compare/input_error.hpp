#pragma once
#include "src/util/input_error.hpp"

namespace aerolbm {

// A run folder that cannot be compared (missing or truncated files, corrupt HDF5, grids that do not match):
// bad input, exit status 2. The message names the file, what is wrong and what to do.
class CompareInputError : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace aerolbm
