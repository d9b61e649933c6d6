# dapetra_mpi_tests(<program> <prefix> <fault-filter>): a GoogleTest program
# under mpirun at 1-4 processes (label `mpi`, <prefix>_np<n>), with timeouts
# so a deadlock fails instead of hanging; and its fault cases, a fault
# injected on one rank at a time, at 2-4 processes (label `fault`,
# <prefix>_fault_np<n>): every rank that talks to the faulty one must throw
# the same clear error.
function(dapetra_mpi_tests program prefix fault_filter)
  foreach(np 1 2 3 4)
    dapetra_test(${prefix}_np${np} NP ${np} COMMAND ${program} LABELS mpi TIMEOUT 300)
  endforeach()
  foreach(np 2 3 4)
    dapetra_test(${prefix}_fault_np${np} NP ${np} COMMAND ${program} --gtest_filter=${fault_filter} LABELS fault
                 TIMEOUT 120)
  endforeach()
endfunction()
