# dapetra_mpi_tests(<program> <prefix> <fault-filter> [SANITIZED <filter>]): a
# GoogleTest program under mpirun at 1-4 processes (label `mpi`,
# <prefix>_np<n>), with timeouts so a deadlock fails instead of hanging; and
# its fault cases, a fault injected on one rank at a time, at 2-4 processes
# (label `fault`, <prefix>_fault_np<n>): every rank that talks to the faulty
# one must throw the same clear error.
# SANITIZED: in a sanitized build (5-10 times slower), 2 and 3 processes only
# (an even and an uneven split, so the memory checks see every code path)
# and the cases <filter> leaves out (the studies that refine a problem until
# it is large) are left to the plain build.
function(dapetra_mpi_tests program prefix fault_filter)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "SANITIZED" "")
  set(counts 1 2 3 4)
  set(filter)
  if(DAPETRA_SANITIZE AND DEFINED arg_SANITIZED)
    set(counts 2 3)
    set(filter --gtest_filter=-${arg_SANITIZED})
  endif()
  foreach(np IN LISTS counts)
    dapetra_test(${prefix}_np${np} NP ${np} COMMAND ${program} ${filter} LABELS mpi TIMEOUT 300)
  endforeach()
  foreach(np 2 3 4)
    dapetra_test(${prefix}_fault_np${np} NP ${np} COMMAND ${program} --gtest_filter=${fault_filter} LABELS fault
                 TIMEOUT 120)
  endforeach()
endfunction()
