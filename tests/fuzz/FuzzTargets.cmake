# Included by the top-level CMakeLists.txt when AEROLBM_FUZZ=ON (see scripts/fuzz.sh): libFuzzer executables for
# the input readers, with AddressSanitizer and UndefinedBehaviorSanitizer. Only aerolbm_input (case + geometry,
# yaml-cpp) is built; yaml-cpp itself is Debian's uninstrumented library, so coverage guidance stops at its API.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "AEROLBM_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++ "
                      "-DCMAKE_C_COMPILER=clang (Debian 12: apt-get install clang libclang-rt-14-dev)")
endif()

set(AEROLBM_FUZZ_SANITIZERS "address,undefined")
# Every UBSan finding stops the run (libFuzzer then saves the input), instead of a message that scrolls past.
set(_fuzz_common -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=all)
target_compile_options(aerolbm_input PRIVATE ${_fuzz_common} -fsanitize=fuzzer-no-link,${AEROLBM_FUZZ_SANITIZERS})

foreach(target case_file selig stl)
  add_executable(fuzz_${target} ${CMAKE_CURRENT_LIST_DIR}/fuzz_${target}.cpp)
  target_compile_options(fuzz_${target} PRIVATE ${_fuzz_common} -fsanitize=fuzzer,${AEROLBM_FUZZ_SANITIZERS})
  target_link_options(fuzz_${target} PRIVATE -fsanitize=fuzzer,${AEROLBM_FUZZ_SANITIZERS})
  target_link_libraries(fuzz_${target} PRIVATE aerolbm_input)
endforeach()
