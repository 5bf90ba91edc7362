/* An LD_PRELOAD shim that counts the OpenCL buffers a process creates: it stands in for clCreateBuffer,
 * passes every call on to the real one, and while counting is on adds up the bytes asked for and keeps the
 * largest request. A program finds the two entry points below with dlsym once the shim is preloaded. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef cl_mem (*create_buffer_fn)(cl_context, cl_mem_flags, size_t, void *, cl_int *);

static int counting;
static size_t total_bytes, largest_bytes, buffers;

/* Starts counting from zero. */
void alloc_probe_start(void)
{
    __atomic_store_n(&total_bytes, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&largest_bytes, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&buffers, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
}

/* Stops counting and reports the buffers created since the start, their bytes and the largest one. */
void alloc_probe_stop(size_t *count, size_t *total, size_t *largest)
{
    __atomic_store_n(&counting, 0, __ATOMIC_SEQ_CST);
    *count = __atomic_load_n(&buffers, __ATOMIC_SEQ_CST);
    *total = __atomic_load_n(&total_bytes, __ATOMIC_SEQ_CST);
    *largest = __atomic_load_n(&largest_bytes, __ATOMIC_SEQ_CST);
}

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    create_buffer_fn real = (create_buffer_fn)dlsym(RTLD_NEXT, "clCreateBuffer");
    if (__atomic_load_n(&counting, __ATOMIC_SEQ_CST)) {
        size_t seen = __atomic_load_n(&largest_bytes, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&total_bytes, size, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&buffers, 1, __ATOMIC_SEQ_CST);
        while (size > seen &&
               !__atomic_compare_exchange_n(&largest_bytes, &seen, size, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        }
    }
    return real(context, flags, size, host_ptr, errcode_ret);
}
