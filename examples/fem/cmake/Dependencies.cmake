# The solver stack and the partitioner are Trilinos packages inside a Trilinos
# source tree, TPLs over an installed Trilinos (cmake/tpls/); PETSc's KSP is
# solved beside Belos when the PETSc adapter is enabled.
if(DEFINED Tpetra_SOURCE_DIR)
  tribits_package_define_dependencies(
    LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi DapetraEigen DapetraTpetra Belos Ifpack2 MueLu Zoltan2
    LIB_OPTIONAL_PACKAGES DapetraPetsc DapetraHdf5
    LIB_REQUIRED_TPLS MPI
    )
else()
  tribits_package_define_dependencies(
    LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi DapetraEigen DapetraTpetra
    LIB_OPTIONAL_PACKAGES DapetraPetsc DapetraHdf5
    LIB_REQUIRED_TPLS MPI Belos Ifpack2 MueLu Zoltan2
    )
endif()
