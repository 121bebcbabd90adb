# Relocatable bundle: `cmake --install build --prefix DIR` puts aerolbm (and the GPU test binaries) in DIR/bin, the
# Python module in DIR/lib/python/aerolbm (PYTHONPATH=DIR/lib/python) with libaerolbm_session.so in DIR/lib, and
# every non-system shared library they load in DIR/lib; they find them through RPATH $ORIGIN/../lib.
# The host that runs the bundle needs only glibc, libstdc++ and, for the CUDA backend, the NVIDIA driver; the
# surrogate's CUDA path also needs cuBLAS (600 MB, far beyond what a bundle should carry) from the host's CUDA
# toolkit (LD_LIBRARY_PATH=/usr/local/cuda/lib64 there); an MPI build (AEROLBM_MPI) also the host's own Open MPI
# (libmpi.so.40 and its mpirun), left out so that the library matches the launcher and the cluster's network.
set(AEROLBM_BUNDLE_TARGETS aerolbm)
foreach(t gpu_tests validation_tests)
  if(TARGET ${t})
    list(APPEND AEROLBM_BUNDLE_TARGETS ${t})
  endif()
endforeach()
install(TARGETS ${AEROLBM_BUNDLE_TARGETS} RUNTIME DESTINATION bin)

set(_bundle_files "")
foreach(t IN LISTS AEROLBM_BUNDLE_TARGETS)
  list(APPEND _bundle_files "$<TARGET_FILE:${t}>")
endforeach()
# The Python module's libraries (python/CMakeLists.txt installs them into lib/ and lib/python/aerolbm/): their
# dependencies go into lib/ as well, so a bundle's Python module (or one rebuilt against lib/libaerolbm_session.so
# for another Python) loads from the bundle alone.
set(_bundle_libraries "")
if(TARGET aerolbm_session)
  string(APPEND _bundle_libraries " LIBRARIES $<TARGET_FILE:aerolbm_session>")
endif()
if(TARGET aerolbm_python_module)
  string(APPEND _bundle_libraries " MODULES $<TARGET_FILE:aerolbm_python_module>")
endif()

install(CODE "
  file(GET_RUNTIME_DEPENDENCIES
    EXECUTABLES ${_bundle_files}${_bundle_libraries}
    RESOLVED_DEPENDENCIES_VAR _deps
    UNRESOLVED_DEPENDENCIES_VAR _missing
    PRE_EXCLUDE_REGEXES
      [[^(ld-linux|libc|libm|libdl|librt|libpthread|libresolv|libutil|libstdc\\+\\+|libgcc_s|libcuda|libnvidia|libcublas|libcublasLt)[.-].*]]
      [[^(libmpi|libopen-rte|libopen-pal)[.-].*]]
      [[^linux-vdso.*]]
    POST_EXCLUDE_REGEXES [[^/lib64/ld-linux.*]])
  foreach(_lib IN LISTS _deps)
    file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib\" TYPE SHARED_LIBRARY FOLLOW_SYMLINK_CHAIN FILES \"\${_lib}\")
  endforeach()
  if(_missing)
    message(WARNING \"aerolbm bundle: unresolved libraries: \${_missing}\")
  endif()
")
