# ctest driver: configure, build and run examples/downstream against Dapetra
# as an installed package, as a build tree, or through add_subdirectory.
#   cmake -DMODE=install|build-tree|subdirectory -DSOURCE=... -DBINARY=... -DWORK=... -DMPIEXEC=... [-DPETSC=ON] [-DDEALII=ON] [-DSOLVERS=ON] [-DHDF5=ON] -P run_downstream.cmake
set(project ${SOURCE}/examples/downstream)
set(build_dir ${WORK}/${MODE})
file(REMOVE_RECURSE ${build_dir})
if(MODE STREQUAL "install")
  set(prefix ${WORK}/prefix)
  file(REMOVE_RECURSE ${prefix})
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY} --prefix ${prefix} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(rc)
    message(FATAL_ERROR "cmake --install failed")
  endif()
  # Public headers only: the mpi layer's wire formats are internal.
  file(GLOB_RECURSE wire ${prefix}/include/*pack.hpp ${prefix}/include/*fingerprint*.hpp ${prefix}/include/*/wire/*)
  if(wire)
    message(FATAL_ERROR "install: internal wire-format headers were installed: ${wire}")
  endif()
  set(how -DDapetra_DIR=${prefix}/lib/cmake/Dapetra)
  if(PYTHON)  # the installed Python package runs the README's example
    execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${PYTHON_DIR}
                            ${MPIEXEC} --allow-run-as-root --oversubscribe -n 2 ${PYTHON} ${SOURCE}/examples/python/quickstart.py
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc)
      message(FATAL_ERROR "install: the installed Python package failed (${rc})\n${out}\n${err}")
    endif()
  endif()
elseif(MODE STREQUAL "build-tree")
  set(how -DDapetra_DIR=${BINARY})
else()
  set(how -DDAPETRA_SOURCE_DIR=${SOURCE})
endif()
foreach(step IN ITEMS configure compile run)
  if(step STREQUAL "configure")
    # A Release build, unoptimized: what is tested is finding, linking and
    # running Dapetra, which no optimization changes, and the add_subdirectory
    # build compiles all of Dapetra's Tpetra-heavy files (at -O0 in half the
    # compiler time of Release's -O3).
    set(cmd ${CMAKE_COMMAND} -S ${project} -B ${build_dir} ${how} -DCMAKE_BUILD_TYPE=Release
            "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG")
  elseif(step STREQUAL "compile")
    set(cmd ${CMAKE_COMMAND} --build ${build_dir} -j 2)
  else()
    set(cmd ${MPIEXEC} --allow-run-as-root --oversubscribe -n 2 ${build_dir}/downstream)
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${MODE}: ${step} failed (${rc})\n${out}\n${err}")
  endif()
endforeach()
# The optional programs: each built when the Dapetra found has its adapter,
# and required when the Dapetra under test was built with it (-DPETSC=ON, -DDEALII=ON, -DSOLVERS=ON, -DHDF5=ON).
foreach(adapter IN ITEMS petsc dealii solvers hdf5)
  string(TOUPPER ${adapter} flag)
  set(program ${build_dir}/downstream_${adapter})
  if(EXISTS ${program})
    execute_process(COMMAND ${MPIEXEC} --allow-run-as-root --oversubscribe -n 2 ${program}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE program_out ERROR_VARIABLE err)
    if(rc)
      message(FATAL_ERROR "${MODE}: downstream_${adapter} failed (${rc})\n${program_out}\n${err}")
    endif()
    string(APPEND out "${program_out}")
  elseif(${flag})
    message(FATAL_ERROR "${MODE}: Dapetra was built with ${adapter}, but the downstream project found no Dapetra::${adapter}")
  endif()
endforeach()
message(STATUS "${MODE}: ${out}")
