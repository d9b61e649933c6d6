# The Dapetra package in a TriBITS project: subpackages DapetraCore,
# DapetraEigen, DapetraMpi and DapetraTpetra (cmake/Dependencies.cmake).
# Plain-CMake builds never read this file.
include(${CMAKE_CURRENT_LIST_DIR}/../DapetraVersion.cmake)
tribits_package_decl(Dapetra)
tribits_process_subpackages()
tribits_package_def()
tribits_package_postprocess()
include(${CMAKE_CURRENT_LIST_DIR}/DapetraInstallNames.cmake)
