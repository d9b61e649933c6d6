# Inside a Trilinos source tree Tpetra, Teuchos and Kokkos are packages (the
# adapter includes all three); anywhere else Tpetra is a TPL whose find
# module (cmake/tpls/FindTPLTpetra.cmake) brings Teuchos and Kokkos with it.
# TPLs stay in LIB_REQUIRED_TPLS: the TriBITS of Trilinos 13 accepts them
# nowhere else (current TriBITS reads both lists alike).
if(DEFINED Tpetra_SOURCE_DIR)
  tribits_package_define_dependencies(
    LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi Tpetra Teuchos Kokkos
    LIB_REQUIRED_TPLS MPI
    )
else()
  tribits_package_define_dependencies(
    LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi
    LIB_REQUIRED_TPLS MPI Tpetra
    )
endif()
