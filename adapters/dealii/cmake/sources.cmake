# The deal.II adapter's sources, for the plain build (CMakeLists.txt) and for TriBITS
# (cmake/tribits.cmake): written once.
set(DAPETRA_DEALII_SOURCES
  src/vector.cpp)
