# The core's sources (the AVX2 fingerprint loops are added by fingerprint_avx2.cmake), for the plain build (CMakeLists.txt) and for TriBITS
# (cmake/tribits.cmake): written once.
set(DAPETRA_CORE_SOURCES
  src/axis.cpp
  src/dim.cpp
  src/dim_math.cpp
  src/distarray.cpp
  src/error.cpp
  src/index_fingerprint.cpp
  src/inspect.cpp
  src/json.cpp
  src/global_layout.cpp
  src/pack.cpp
  src/process_grid.cpp
  src/record_reader.cpp
  src/validate.cpp)
