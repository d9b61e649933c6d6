# cmake --install: headers, libraries, dapetra-inspect, and a CMake package
# (DapetraConfig.cmake + version file) with namespaced targets
# Dapetra::core, Dapetra::mpi, Dapetra::tpetra, Dapetra::solvers, Dapetra::eigen, Dapetra::petsc, Dapetra::dealii, Dapetra::hdf5 and Dapetra::all_libs. The build tree exports
# the same package, so a downstream project can also point Dapetra_DIR at build/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DAPETRA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Dapetra)
set(_dapetra_targets dapetra_core)
if(TARGET dapetra_mpi)
  list(APPEND _dapetra_targets dapetra_mpi)
endif()
if(TARGET dapetra_tpetra)
  list(APPEND _dapetra_targets dapetra_tpetra)
endif()
if(TARGET dapetra_solvers)
  list(APPEND _dapetra_targets dapetra_solvers)
endif()
if(TARGET dapetra_eigen)
  list(APPEND _dapetra_targets dapetra_eigen)
endif()
if(TARGET dapetra_petsc)
  list(APPEND _dapetra_targets dapetra_petsc)
endif()
if(TARGET dapetra_dealii)
  list(APPEND _dapetra_targets dapetra_dealii)
endif()
if(TARGET dapetra_hdf5)
  list(APPEND _dapetra_targets dapetra_hdf5)
endif()

# Dapetra::all_libs, as TriBITS packages provide it.
add_library(dapetra_all_libs INTERFACE)
set_target_properties(dapetra_all_libs PROPERTIES EXPORT_NAME all_libs)
target_link_libraries(dapetra_all_libs INTERFACE ${_dapetra_targets})
add_library(Dapetra::all_libs ALIAS dapetra_all_libs)

install(TARGETS ${_dapetra_targets} dapetra_all_libs EXPORT DapetraTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS dapetra-inspect RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/packages/core/include/dapetra DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/packages/core/include/dapetra/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dapetra)
if(TARGET dapetra_mpi)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/packages/mpi/include/dapetra DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp")
endif()
foreach(adapter tpetra eigen petsc dealii hdf5)
  if(TARGET dapetra_${adapter})
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/adapters/${adapter}/include/dapetra DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
            FILES_MATCHING PATTERN "*.hpp")
  endif()
endforeach()

set(DAPETRA_WITH_TPETRA ${DAPETRA_ENABLE_TPETRA})
set(DAPETRA_WITH_EIGEN ${DAPETRA_ENABLE_EIGEN})
if(TARGET dapetra_petsc)
  set(DAPETRA_WITH_PETSC ON)
else()
  set(DAPETRA_WITH_PETSC OFF)
endif()
if(TARGET dapetra_solvers)
  set(DAPETRA_WITH_SOLVERS ON)
else()
  set(DAPETRA_WITH_SOLVERS OFF)
endif()
if(TARGET dapetra_dealii)
  set(DAPETRA_WITH_DEALII ON)
else()
  set(DAPETRA_WITH_DEALII OFF)
endif()
if(TARGET dapetra_hdf5)
  set(DAPETRA_WITH_HDF5 ON)
else()
  set(DAPETRA_WITH_HDF5 OFF)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/DapetraConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/DapetraConfig.cmake
                              INSTALL_DESTINATION ${DAPETRA_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/DapetraConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(EXPORT DapetraTargets NAMESPACE Dapetra:: DESTINATION ${DAPETRA_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/DapetraConfig.cmake ${PROJECT_BINARY_DIR}/DapetraConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/DapetraCompat.cmake ${PROJECT_SOURCE_DIR}/cmake/DapetraDealii.cmake
        DESTINATION ${DAPETRA_INSTALL_CMAKEDIR})

# The build tree as a package too.
export(EXPORT DapetraTargets NAMESPACE Dapetra:: FILE ${PROJECT_BINARY_DIR}/DapetraTargets.cmake)
foreach(file DapetraCompat DapetraDealii)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${file}.cmake ${PROJECT_BINARY_DIR}/${file}.cmake COPYONLY)
endforeach()
