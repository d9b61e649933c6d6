# DapetraFem in a TriBITS project (read from CMakeLists.txt there): the
# finite-element example and its tests. Its libraries are test-only (built
# for dapetra-fem and the tests, never installed); Belos, Ifpack2, MueLu and
# Zoltan2 come as packages (a Trilinos source tree) or as TPLs (an installed
# Trilinos, cmake/tpls/), and TriBITS links them to the libraries.
tribits_subpackage(Fem)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/tribits/DapetraSubpackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sources.cmake)
find_package(ZLIB REQUIRED)
tribits_add_library(dapetra_fem_mesh TESTONLY SOURCES ${DAPETRA_FEM_MESH_SOURCES} ADDED_LIB_TARGET_NAME_OUT mesh)
target_link_libraries(${mesh} PUBLIC ZLIB::ZLIB)
# The optional parts, each with its adapter (FEM_WITH_<PART> tells the code):
# PETSc KSP beside Belos (--petsc); checkpoints and one-file output (HDF5).
set(parts)
foreach(part PETSC HDF5)
  string(TOLOWER ${part} adapter)
  if(TARGET Dapetra::${adapter})
    list(APPEND DAPETRA_FEM_SOURCES ${DAPETRA_FEM_${part}_SOURCES})
    list(APPEND parts FEM_WITH_${part}=1)
  else()
    list(APPEND parts FEM_WITH_${part}=0)
  endif()
endforeach()
tribits_add_library(dapetra_fem TESTONLY SOURCES ${DAPETRA_FEM_SOURCES} ADDED_LIB_TARGET_NAME_OUT fem)
target_link_libraries(${fem} PUBLIC ${mesh})
foreach(target ${mesh} ${fem})
  target_compile_features(${target} PUBLIC cxx_std_17)
  target_compile_definitions(${target} PUBLIC ${parts} OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX)
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  dapetra_warnings(${target})
endforeach()
add_library(dapetra::fem ALIAS ${fem})
tribits_add_executable(dapetra-fem NOEXEPREFIX NOEXESUFFIX SOURCES main.cpp ADDED_EXE_TARGET_NAME_OUT exe)
target_link_libraries(${exe} PUBLIC dapetra::fem)
dapetra_tribits_tests(fem)
tribits_subpackage_postprocess()
