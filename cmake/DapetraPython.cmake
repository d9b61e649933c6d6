# Finds what the Python package needs: an interpreter with its development
# files, pybind11, NumPy and mpi4py (whose C API gives the MPI communicator).
# Sets DAPETRA_PYTHON_FOUND, DAPETRA_MPI4PY_INCLUDE, DAPETRA_PYTHON_INSTALL_DIR,
# or DAPETRA_PYTHON_MISSING (what is missing).
set(DAPETRA_PYTHON_FOUND FALSE)
set(PYBIND11_FINDPYTHON ON)
find_package(Python3 3.8 COMPONENTS Interpreter Development.Module)
find_package(pybind11 2.6 CONFIG QUIET)
if(NOT Python3_FOUND)
  set(DAPETRA_PYTHON_MISSING "no Python 3 interpreter with development files")
  return()
endif()
if(NOT pybind11_FOUND)
  set(DAPETRA_PYTHON_MISSING "no pybind11 (Debian: pybind11-dev)")
  return()
endif()
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy, mpi4py; print(mpi4py.get_include())"
                OUTPUT_VARIABLE DAPETRA_MPI4PY_INCLUDE OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE mpi4py_missing ERROR_QUIET)
if(mpi4py_missing)
  set(DAPETRA_PYTHON_MISSING "${Python3_EXECUTABLE} cannot import numpy and mpi4py (Debian: python3-numpy, python3-mpi4py)")
  return()
endif()
# <prefix>/lib/python3.X/site-packages, as the interpreter's own scheme names it.
execute_process(COMMAND ${Python3_EXECUTABLE} -c
                "import os, sysconfig; print(os.path.relpath(sysconfig.get_path('platlib', 'posix_prefix', {'platbase': '/p', 'base': '/p'}), '/p'))"
                OUTPUT_VARIABLE default_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
set(DAPETRA_PYTHON_INSTALL_DIR "${default_dir}" CACHE STRING "Where the dapetra package is installed, relative to the prefix")
set(DAPETRA_PYTHON_FOUND TRUE)
