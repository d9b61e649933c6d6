# The HDF5 adapter's sources, for the plain build (CMakeLists.txt) and for
# TriBITS (cmake/tribits.cmake): written once.
set(DAPETRA_HDF5_SOURCES
  src/checkpoint.cpp)
