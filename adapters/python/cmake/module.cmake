# The `dapetra` Python package, for the plain build (adapters/python/CMakeLists.txt)
# and for TriBITS (adapters/python/cmake/tribits.cmake):
#   dapetra_python_package(<dir>)
# builds the pybind11 module dapetra_python (the communication layer, and the
# Tpetra adapter when Dapetra::tpetra exists, checkpoints when Dapetra::hdf5 does) into <dir>/dapetra beside the
# pure-Python part, so <dir> is an importable package (PYTHONPATH=<dir>), and
# installs both under <prefix>/${DAPETRA_PYTHON_INSTALL_DIR}. Needs what
# cmake/DapetraPython.cmake found.
function(dapetra_python_package dir)
  set(src ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../src)
  pybind11_add_module(dapetra_python ${src}/module.cpp ${src}/convert.cpp ${src}/plans.cpp ${src}/ownership_args.cpp)
  # Default symbol visibility, not pybind11's hidden one: Trilinos keeps
  # registries in function-local statics of templates (Belos' solver factory),
  # which must be the same objects here as in Trilinos' own libraries.
  set_target_properties(dapetra_python PROPERTIES OUTPUT_NAME _dapetra LIBRARY_OUTPUT_DIRECTORY ${dir}/dapetra
                        CXX_VISIBILITY_PRESET default VISIBILITY_INLINES_HIDDEN OFF)
  target_include_directories(dapetra_python PRIVATE ${DAPETRA_MPI4PY_INCLUDE} ${DAPETRA_MPI_INTERNAL_DIR})
  target_link_libraries(dapetra_python PRIVATE Dapetra::mpi)
  if(TARGET Dapetra::tpetra)
    target_sources(dapetra_python PRIVATE ${src}/tpetra.cpp)
    target_compile_definitions(dapetra_python PRIVATE DAPETRA_PYTHON_TPETRA)
    target_link_libraries(dapetra_python PRIVATE Dapetra::tpetra)
    # Matrices and solvers: Belos with Ifpack2's preconditioners (and MueLu's), when installed.
    find_package(Belos QUIET)
    find_package(Ifpack2 QUIET)
    if(Belos_FOUND AND Ifpack2_FOUND)
      include(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../../cmake/DapetraCompat.cmake)
      dapetra_trilinos_target(dapetra::trilinos_ifpack2 Ifpack2)
      target_sources(dapetra_python PRIVATE ${src}/solve.cpp)
      target_compile_definitions(dapetra_python PRIVATE DAPETRA_PYTHON_SOLVE)
      target_link_libraries(dapetra_python PRIVATE dapetra::trilinos_ifpack2)
      find_package(MueLu QUIET)  # preconditioner='MueLu'
      if(MueLu_FOUND)
        dapetra_trilinos_target(dapetra::trilinos_muelu MueLu)
        target_compile_definitions(dapetra_python PRIVATE DAPETRA_PYTHON_MUELU)
        target_link_libraries(dapetra_python PRIVATE dapetra::trilinos_muelu)
      endif()
    endif()
  endif()
  if(TARGET Dapetra::hdf5)  # dapetra.save and dapetra.load
    target_sources(dapetra_python PRIVATE ${src}/checkpoint.cpp)
    target_compile_definitions(dapetra_python PRIVATE DAPETRA_PYTHON_HDF5)
    target_link_libraries(dapetra_python PRIVATE Dapetra::hdf5)
  endif()
  dapetra_warnings(dapetra_python)

  # The pure-Python part next to the module, so the build tree is a package.
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../dapetra/*.py)
  foreach(f ${sources})
    get_filename_component(name ${f} NAME)
    configure_file(${f} ${dir}/dapetra/${name} COPYONLY)
  endforeach()

  install(TARGETS dapetra_python LIBRARY DESTINATION ${DAPETRA_PYTHON_INSTALL_DIR}/dapetra)
  install(FILES ${sources} DESTINATION ${DAPETRA_PYTHON_INSTALL_DIR}/dapetra)
endfunction()
