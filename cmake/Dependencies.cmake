tribits_package_define_dependencies(
  SUBPACKAGES_DIRS_CLASSIFICATIONS_OPTREQS
    Core    packages/core     PT  REQUIRED
    Mpi     packages/mpi      PT  REQUIRED
    Tpetra  adapters/tpetra   PT  OPTIONAL
  )
