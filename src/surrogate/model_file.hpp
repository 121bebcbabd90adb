#pragma once
// Reads and checks a model.h5 (postprocess/surrogate/SCHEMA.md, format aerolbm-surrogate, version 2 or 1): format
// and version first, then every attribute, every dataset and every shape, before any inference runs. Version 1 has
// no coefficient head (Model::coef empty); version 2 must hold it complete.
#include <filesystem>

#include "src/surrogate/model.hpp"
#include "src/util/input_error.hpp"

namespace aerolbm::surrogate {

// A model file that cannot be used (missing, not HDF5, wrong format or version, a missing dataset or attribute,
// a wrong shape, non-finite weights): bad input, exit status 2. The message names the file, the object, what was
// expected, what was found and what to do.
class ModelFileError : public InputError {
 public:
  using InputError::InputError;
};

inline constexpr const char* kModelFormat = "aerolbm-surrogate";
inline constexpr int kModelVersion = 2;        // what export.py writes
inline constexpr int kOldestModelVersion = 1;  // still read: fields only

Model load_model(const std::filesystem::path& file);

}  // namespace aerolbm::surrogate
