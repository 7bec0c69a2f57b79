# embed_files(TARGET file...) builds a static library that holds each file's text as
#   std::string_view permjit::embedded::<stem>_<ext>()
# and a lookup by file name, permjit::embedded::find(name).
function(embed_files target)
  set(out_cpp ${CMAKE_CURRENT_BINARY_DIR}/${target}.cpp)
  string(REPLACE ";" "," joined "${ARGN}")  # a list cannot pass through -D as is
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} "-DFILES=${joined}"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake
    DEPENDS ${ARGN} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedFilesScript.cmake
    COMMENT "Embedding templates"
    VERBATIM)
  add_library(${target} STATIC ${out_cpp})
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()
