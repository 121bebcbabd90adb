#pragma once
// The DLPack tensor exchange ABI (https://dmlc.github.io/dlpack/latest/, the unversioned "dltensor" capsule that
// every consumer accepts: torch.from_dlpack, cupy.from_dlpack, jax.dlpack, numpy.from_dlpack), declared here
// with the layout of dlpack.h (v0.6 and later) so that the module builds where that header is not installed.
#include <cstdint>

namespace aerolbm::dlpack {

enum DeviceType : std::int32_t { kCPU = 1, kCUDA = 2 };
enum TypeCode : std::uint8_t { kInt = 0, kUInt = 1, kFloat = 2 };

struct Device {
  std::int32_t device_type;  // DeviceType
  std::int32_t device_id;
};

struct DataType {
  std::uint8_t code;  // TypeCode
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct Tensor {
  void* data;
  Device device;
  std::int32_t ndim;
  DataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // null: compact, row-major
  std::uint64_t byte_offset;
};

struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};

static_assert(sizeof(Device) == 8 && sizeof(DataType) == 4, "DLPack ABI layout");
static_assert(sizeof(Tensor) == 48 && sizeof(ManagedTensor) == 64, "DLPack ABI layout (64-bit)");

}  // namespace aerolbm::dlpack
