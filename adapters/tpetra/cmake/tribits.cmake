# DapetraTpetra in a TriBITS project (read from CMakeLists.txt there). Inside
# Trilinos, Tpetra's targets and include paths come from the package itself.
tribits_subpackage(Tpetra)
tribits_include_directories(${CMAKE_CURRENT_LIST_DIR}/../include)
file(GLOB dapetra_tpetra_headers ${CMAKE_CURRENT_LIST_DIR}/../include/dapetra/tpetra/*.hpp)
tribits_add_library(dapetra_tpetra
  HEADERS ${dapetra_tpetra_headers}
  HEADERS_INSTALL_SUBDIR dapetra/tpetra
  SOURCES src/eti_float.cpp src/layout.cpp src/producer.cpp src/views.cpp
  ADDED_LIB_TARGET_NAME_OUT tpetra_target)
target_compile_features(${tpetra_target} PUBLIC cxx_std_17)
tribits_subpackage_postprocess()
