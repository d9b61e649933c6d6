# Checkpoints in parallel HDF5 (adapters/hdf5): round trips between process
# counts and layouts, the file read by serial HDF5, and faults.
dapetra_test_program(test_hdf5 SOURCES mpi/mpi_main.cpp hdf5/test_checkpoint.cpp LIBS Dapetra::hdf5 PkgConfig::DAPETRA_HDF5 GTest::gtest)
dapetra_mpi_tests(test_hdf5 hdf5 "Faults.*")
