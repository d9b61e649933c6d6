# The index fingerprint's AVX2 loops (src/index_fingerprint_avx2.cpp): built
# with -mavx2 where the compiler targets x86-64, and used only on CPUs that
# report AVX2 at run time, so the library still runs on any x86-64.
function(dapetra_fingerprint_avx2 target)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    set(source ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../src/index_fingerprint_avx2.cpp)
    target_sources(${target} PRIVATE ${source})
    set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS -mavx2)
    target_compile_definitions(${target} PRIVATE DAPETRA_FINGERPRINT_AVX2=1)
  endif()
endfunction()
