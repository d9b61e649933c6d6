# Checkpoints in parallel HDF5 (adapters/hdf5): round trips between process
# counts and layouts, the file read by serial HDF5, and faults.
# (They call HDF5 themselves: the plain build's Dapetra::hdf5 links it
# privately, TriBITS' links its HDF5 TPL to whatever links it.)
set(libs Dapetra::hdf5 GTest::gtest)
if(TARGET PkgConfig::DAPETRA_HDF5)
  list(APPEND libs PkgConfig::DAPETRA_HDF5)
endif()
dapetra_test_program(test_hdf5 SOURCES mpi/mpi_main.cpp hdf5/test_checkpoint.cpp LIBS ${libs})
dapetra_mpi_tests(test_hdf5 hdf5 "Faults.*")
