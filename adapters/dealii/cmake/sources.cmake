# The deal.II adapter's sources, for the plain build (CMakeLists.txt) and for TriBITS
# (cmake/tribits.cmake): written once.
set(DAPETRA_DEALII_SOURCES
  src/ranges.cpp
  src/vector.cpp)
# With the Tpetra adapter (dapetra/dealii/tpetra_matrix.hpp).
set(DAPETRA_DEALII_TPETRA_SOURCES
  src/tpetra_matrix.cpp
  src/constraints.cpp)
