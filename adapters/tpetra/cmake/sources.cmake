# The Tpetra adapter's sources, for the plain build (CMakeLists.txt) and for TriBITS
# (cmake/tribits.cmake): written once.
set(DAPETRA_TPETRA_SOURCES
  src/eti.cpp
  src/crs_matrix.cpp
  src/fe_matrix.cpp
  src/muelu_parameters.cpp
  src/tpetra_layout.cpp
  src/producer.cpp
  src/transfers.cpp
  src/views.cpp)
