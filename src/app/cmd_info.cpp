#include <omp.h>

#include <iostream>

#include "kernels/backend.hpp"
#include "src/app/commands.hpp"
#include "src/parallel/parallel.hpp"

namespace aerolbm::app {

namespace {

int print_info() {
  std::cout << "aerolbm " << AEROLBM_VERSION << "\n";
#ifdef AEROLBM_HAVE_CUDA
  std::cout << "  CUDA backend      built\n";
#else
  std::cout << "  CUDA backend      not built (no CUDA compiler at configure time)\n";
#endif
  std::cout << "  CUDA devices      " << cuda_device_count() << "\n";
  std::cout << "  " << cuda_device_summary() << "\n";
  std::cout << "  CPU threads       " << omp_get_max_threads() << " (OpenMP)\n";
  std::cout << "  MPI               "
            << (mpi_built() ? "built (mpirun -np N aerolbm run ...: one block per rank)"
                            : "not built (configure with -DAEROLBM_MPI=ON)")
            << "\n";
  std::cout << "  lattices          D2Q9 D3Q19 D3Q27\n";
  std::cout << "  precision         cpu: fp32 fp64; cuda: fp32 fp16s\n";
  std::cout << "  outputs           HDF5 + XDMF, VTK XML image data (.vti + .pvd), forces.csv, summary.json\n";
  return kOk;
}

}  // namespace

void add_info_command(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("info", "Print devices and build options");
  cmd->callback([&status]() { status = exit_status("info", print_info); });
}

}  // namespace aerolbm::app
