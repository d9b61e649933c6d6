# DapetraPython in a TriBITS project (read from CMakeLists.txt there): the
# `dapetra` package in <build>/python, its pytest suite under TriBITS' MPI
# launcher. The interpreter is the one CMake finds (on Debian:
# -DPython3_EXECUTABLE=/usr/bin/python3, whose python3-* packages it needs).
tribits_subpackage(Python)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${DAPETRA_ROOT}/cmake/DapetraPython.cmake)
if(NOT DAPETRA_PYTHON_FOUND)
  message(FATAL_ERROR "DapetraPython: ${DAPETRA_PYTHON_MISSING}")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/module.cmake)
dapetra_python_package(${PROJECT_BINARY_DIR}/python)
set(DAPETRA_PYTHON_ENV PYTHONPATH=${PROJECT_BINARY_DIR}/python)
dapetra_tribits_tests(python)
tribits_subpackage_postprocess()
