/* An LD_PRELOAD interposer over the OpenCL calls that create, retain and release objects (contexts, queues,
 * buffers, programs, kernels, events). It keeps a ledger of every object: its kind, whether libfftx.so or
 * the program created it, and its references, counting each create and retain as +1 and each release as -1
 * (per caller: libfftx.so or the program). At exit it writes to $CLTRACE_REPORT:
 *
 *   calls <who> <kind> created <n> retained <n> released <n>    every such call, by caller
 *   alive <creator> <kind> <count>                            objects whose references never reached zero
 *   held <kind> <count>                                       program objects libfftx.so still holds a reference to
 *   build <start ns> <end ns>                                 each clBuildProgram call, with CLOCK_MONOTONIC times
 *
 * With CLTRACE_BREAK_BUILDS=1 every program built from source gets an #error line first, so that its build
 * fails with a real build log. With CLTRACE_NO_FP64=1 every device reports no double precision: a zero
 * CL_DEVICE_DOUBLE_FP_CONFIG and no fp64 extension. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum kind { CONTEXT, QUEUE, BUFFER, PROGRAM, KERNEL, EVENT, KINDS };
static const char *const kind_names[KINDS] = {"context", "queue", "buffer", "program", "kernel", "event"};
enum who { APP, FFTX, WHOS };
static const char *const who_names[WHOS] = {"app", "fftx"};

struct object {
    void *handle;
    enum kind kind;
    enum who creator;
    long references;
    long fftx_references;
};

#define SLOTS (1 << 20)
static struct object ledger[SLOTS];
static long created[WHOS][KINDS], retained[WHOS][KINDS], released[WHOS][KINDS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define MAX_BUILDS 4096
static struct timespec build_start[MAX_BUILDS], build_end[MAX_BUILDS];
static int builds;

/* The module a call came from: libfftx.so or anything else (the program, ocl-icd, a driver). */
static enum who caller(void *return_address)
{
    Dl_info info;
    if (dladdr(return_address, &info) && info.dli_fname && strstr(info.dli_fname, "libfftx")) {
        return FFTX;
    }
    return APP;
}

static struct object *slot(void *handle)
{
    size_t i = ((uintptr_t)handle >> 4) * 2654435761u % SLOTS;
    while (ledger[i].handle && ledger[i].handle != handle) {
        i = (i + 1) % SLOTS;
    }
    return &ledger[i];
}

/* Removes a slot from the open-addressing table, moving later entries of its run back. */
static void vacate(struct object *o)
{
    size_t i = (size_t)(o - ledger), j = i;
    ledger[i].handle = NULL;
    for (;;) {
        size_t home;
        j = (j + 1) % SLOTS;
        if (!ledger[j].handle) {
            return;
        }
        home = ((uintptr_t)ledger[j].handle >> 4) * 2654435761u % SLOTS;
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            ledger[i] = ledger[j];
            ledger[j].handle = NULL;
            i = j;
        }
    }
}

static void on_create(void *handle, enum kind kind, enum who who)
{
    struct object *o;
    if (!handle) {
        return;
    }
    pthread_mutex_lock(&lock);
    o = slot(handle);
    *o = (struct object){handle, kind, who, 1, who == FFTX};
    created[who][kind]++;
    pthread_mutex_unlock(&lock);
}

static void on_reference(void *handle, int delta, enum who who)
{
    struct object *o;
    pthread_mutex_lock(&lock);
    o = slot(handle);
    if (o->handle) {
        o->references += delta;
        if (who == FFTX) {
            o->fftx_references += delta;
        }
        if (delta > 0) {
            retained[who][o->kind]++;
        } else {
            released[who][o->kind]++;
        }
        if (o->references <= 0) {
            vacate(o);
        }
    }
    pthread_mutex_unlock(&lock);
}

#define REAL(name) ((__typeof__(&name))real_symbol(#name))
static void *real_symbol(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "cltrace: no %s to interpose\n", name);
        abort();
    }
    return f;
}

#define WHO caller(__builtin_return_address(0))

/* True when the environment variable `name` is 1. */
static int flag(const char *name)
{
    const char *value = getenv(name);
    return value && strcmp(value, "1") == 0;
}

/* Creates returning the object. */
#define CREATE(kind, call)                                                                                        \
    do {                                                                                                          \
        void *made = (void *)(call);                                                                              \
        on_create(made, kind, WHO);                                                                               \
        return (__typeof__(call))made;                                                                            \
    } while (0)

/* Enqueues that may return an event. */
#define ENQUEUE(call, event)                                                                                      \
    do {                                                                                                          \
        cl_int status = (call);                                                                                   \
        if (status == CL_SUCCESS && (event)) {                                                                    \
            on_create(*(event), EVENT, WHO);                                                                      \
        }                                                                                                         \
        return status;                                                                                            \
    } while (0)

#define RETAIN_RELEASE(type, retain, release)                                                                     \
    cl_int retain(type object)                                                                                    \
    {                                                                                                             \
        cl_int status = REAL(retain)(object);                                                                     \
        if (status == CL_SUCCESS) {                                                                               \
            on_reference(object, +1, WHO);                                                                        \
        }                                                                                                         \
        return status;                                                                                            \
    }                                                                                                             \
    cl_int release(type object)                                                                                   \
    {                                                                                                             \
        enum who who = WHO;                                                                                       \
        cl_int status = REAL(release)(object);                                                                    \
        if (status == CL_SUCCESS) {                                                                               \
            on_reference(object, -1, who);                                                                        \
        }                                                                                                         \
        return status;                                                                                            \
    }

RETAIN_RELEASE(cl_context, clRetainContext, clReleaseContext)
RETAIN_RELEASE(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue)
RETAIN_RELEASE(cl_mem, clRetainMemObject, clReleaseMemObject)
RETAIN_RELEASE(cl_program, clRetainProgram, clReleaseProgram)
RETAIN_RELEASE(cl_kernel, clRetainKernel, clReleaseKernel)
RETAIN_RELEASE(cl_event, clRetainEvent, clReleaseEvent)

cl_context clCreateContext(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
                           void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user_data,
                           cl_int *errcode_ret)
{
    CREATE(CONTEXT, REAL(clCreateContext)(properties, num_devices, devices, notify, user_data, errcode_ret));
}

cl_context clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                                   void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                   void *user_data, cl_int *errcode_ret)
{
    CREATE(CONTEXT, REAL(clCreateContextFromType)(properties, device_type, notify, user_data, errcode_ret));
}

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device, cl_command_queue_properties properties,
                                      cl_int *errcode_ret)
{
    CREATE(QUEUE, REAL(clCreateCommandQueue)(context, device, properties, errcode_ret));
}

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    CREATE(BUFFER, REAL(clCreateBuffer)(context, flags, size, host_ptr, errcode_ret));
}

cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void *info,
                         cl_int *errcode_ret)
{
    CREATE(BUFFER, REAL(clCreateSubBuffer)(buffer, flags, type, info, errcode_ret));
}

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings, const size_t *lengths,
                                     cl_int *errcode_ret)
{
    const char *broken[2] = {"#error \"cltrace: build broken on purpose\"\n", NULL};
    if (flag("CLTRACE_BREAK_BUILDS") && count == 1 && lengths == NULL) {
        broken[1] = strings[0];
        CREATE(PROGRAM, REAL(clCreateProgramWithSource)(context, 2, broken, NULL, errcode_ret));
    }
    CREATE(PROGRAM, REAL(clCreateProgramWithSource)(context, count, strings, lengths, errcode_ret));
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                     const size_t *lengths, const unsigned char **binaries, cl_int *binary_status,
                                     cl_int *errcode_ret)
{
    CREATE(PROGRAM,
           REAL(clCreateProgramWithBinary)(context, num_devices, devices, lengths, binaries, binary_status, errcode_ret));
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
                      void(CL_CALLBACK *notify)(cl_program, void *), void *user_data)
{
    struct timespec start, end;
    cl_int status;
    clock_gettime(CLOCK_MONOTONIC, &start);
    status = REAL(clBuildProgram)(program, num_devices, devices, options, notify, user_data);
    clock_gettime(CLOCK_MONOTONIC, &end);
    pthread_mutex_lock(&lock);
    if (builds < MAX_BUILDS) {
        build_start[builds] = start;
        build_end[builds] = end;
        builds++;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

cl_kernel clCreateKernel(cl_program program, const char *name, cl_int *errcode_ret)
{
    CREATE(KERNEL, REAL(clCreateKernel)(program, name, errcode_ret));
}

cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset,
                              const size_t *global, const size_t *local, cl_uint waits, const cl_event *wait_list,
                              cl_event *event)
{
    ENQUEUE(REAL(clEnqueueNDRangeKernel)(queue, kernel, dims, offset, global, local, waits, wait_list, event), event);
}

cl_int clEnqueueCopyBuffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                           size_t size, cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    ENQUEUE(REAL(clEnqueueCopyBuffer)(queue, src, dst, src_offset, dst_offset, size, waits, wait_list, event), event);
}

cl_int clEnqueueReadBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                           void *ptr, cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    ENQUEUE(REAL(clEnqueueReadBuffer)(queue, buffer, blocking, offset, size, ptr, waits, wait_list, event), event);
}

cl_int clEnqueueWriteBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                            const void *ptr, cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    ENQUEUE(REAL(clEnqueueWriteBuffer)(queue, buffer, blocking, offset, size, ptr, waits, wait_list, event), event);
}

cl_int clEnqueueReadBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking, const size_t *buffer_origin,
                               const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                               size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                               cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    ENQUEUE(REAL(clEnqueueReadBufferRect)(queue, buffer, blocking, buffer_origin, host_origin, region,
                                          buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                                          waits, wait_list, event),
            event);
}

cl_int clEnqueueWriteBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking, const size_t *buffer_origin,
                                const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                                size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                                const void *ptr, cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    ENQUEUE(REAL(clEnqueueWriteBufferRect)(queue, buffer, blocking, buffer_origin, host_origin, region,
                                           buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                                           ptr, waits, wait_list, event),
            event);
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    ENQUEUE(REAL(clEnqueueMarkerWithWaitList)(queue, waits, wait_list, event), event);
}

/* Copies `text` out as clGetDeviceInfo does: the size needed, and the text if it fits. */
static cl_int answer(const char *text, size_t size, void *value, size_t *size_ret)
{
    size_t needed = strlen(text) + 1;
    if (size_ret) {
        *size_ret = needed;
    }
    if (value) {
        if (size < needed) {
            return CL_INVALID_VALUE;
        }
        memcpy(value, text, needed);
    }
    return CL_SUCCESS;
}

cl_int clGetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void *value, size_t *size_ret)
{
    char extensions[8192], kept[8192] = "";
    char *word, *rest;
    if (!flag("CLTRACE_NO_FP64")) {
        return REAL(clGetDeviceInfo)(device, param, size, value, size_ret);
    }
    if (param == CL_DEVICE_DOUBLE_FP_CONFIG) {
        if (size_ret) {
            *size_ret = sizeof(cl_device_fp_config);
        }
        if (value) {
            if (size < sizeof(cl_device_fp_config)) {
                return CL_INVALID_VALUE;
            }
            *(cl_device_fp_config *)value = 0;
        }
        return CL_SUCCESS;
    }
    if (param != CL_DEVICE_EXTENSIONS) {
        return REAL(clGetDeviceInfo)(device, param, size, value, size_ret);
    }
    if (REAL(clGetDeviceInfo)(device, param, sizeof extensions, extensions, NULL) != CL_SUCCESS) {
        return CL_INVALID_VALUE;
    }
    for (word = strtok_r(extensions, " ", &rest); word; word = strtok_r(NULL, " ", &rest)) {
        if (!strstr(word, "fp64")) {
            strcat(strcat(kept, word), " ");
        }
    }
    return answer(kept, size, value, size_ret);
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("CLTRACE_REPORT");
    long alive[WHOS][KINDS] = {{0}}, held[KINDS] = {0};
    FILE *out;
    size_t i;
    int w, k, b;

    if (!path || !(out = fopen(path, "w"))) {
        return;
    }
    for (i = 0; i < SLOTS; i++) {
        if (ledger[i].handle) {
            alive[ledger[i].creator][ledger[i].kind]++;
            held[ledger[i].kind] += ledger[i].fftx_references > 0;
        }
    }
    for (w = 0; w < WHOS; w++) {
        for (k = 0; k < KINDS; k++) {
            fprintf(out, "calls %s %s created %ld retained %ld released %ld\n", who_names[w], kind_names[k],
                    created[w][k], retained[w][k], released[w][k]);
        }
    }
    for (w = 0; w < WHOS; w++) {
        for (k = 0; k < KINDS; k++) {
            fprintf(out, "alive %s %s %ld\n", who_names[w], kind_names[k], alive[w][k]);
        }
    }
    for (k = 0; k < KINDS; k++) {
        fprintf(out, "held %s %ld\n", kind_names[k], held[k]);
    }
    for (b = 0; b < builds; b++) {
        fprintf(out, "build %lld %lld\n", (long long)build_start[b].tv_sec * 1000000000LL + build_start[b].tv_nsec,
                (long long)build_end[b].tv_sec * 1000000000LL + build_end[b].tv_nsec);
    }
    fclose(out);
}
