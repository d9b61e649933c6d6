# The Eigen adapter's tests (single process): label `unit`.
dapetra_test_program(test_eigen SOURCES eigen/test_eigen.cpp LIBS Dapetra::eigen GTest::gtest_main)
dapetra_gtest_program_tests(test_eigen LABELS unit TIMEOUT 60)
