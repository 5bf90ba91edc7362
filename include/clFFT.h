/* fftx: the clFFT 2.12 C interface.
 *
 * libfftx.so implements every function below with the names, argument types, enum values and struct layout
 * of clFFT 2.12.2, so a program built against clFFT runs unchanged when libclFFT.so.2 resolves to
 * libfftx.so, and a program built against this header can link either library.
 *
 * Usage in short: clfftSetup once; clfftCreateDefaultPlan for a context and the lengths; adjust the plan with
 * the clfftSetPlan* / clfftSetLayout / clfftSetResultLocation functions; optionally clfftBakePlan; then
 * clfftEnqueueTransform as often as needed; clfftDestroyPlan; clfftTeardown at exit. Every function returns
 * a clfftStatus: CLFFT_SUCCESS, an OpenCL error code, or one of the clFFT-specific codes from 4096 up.
 */
#pragma once
#if !defined(CLFFT_H)
#define CLFFT_H

#if defined(__APPLE__) || defined(__MACOSX)
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#include "clFFT.version.h"

#if defined(_WIN32) && !defined(CLFFT_STATIC)
#if defined(CLFFT_EXPORTS)
#define CLFFTAPI __declspec(dllexport)
#else
#define CLFFTAPI __declspec(dllimport)
#endif
#else
#define CLFFTAPI
#endif

/* Results of the library's functions. The OpenCL codes keep their OpenCL values; the clFFT-specific ones
 * start at 4096, above every OpenCL code. */
enum clfftStatus_ {
    CLFFT_INVALID_GLOBAL_WORK_SIZE = CL_INVALID_GLOBAL_WORK_SIZE,
    CLFFT_INVALID_MIP_LEVEL = CL_INVALID_MIP_LEVEL,
    CLFFT_INVALID_BUFFER_SIZE = CL_INVALID_BUFFER_SIZE,
    CLFFT_INVALID_GL_OBJECT = CL_INVALID_GL_OBJECT,
    CLFFT_INVALID_OPERATION = CL_INVALID_OPERATION,
    CLFFT_INVALID_EVENT = CL_INVALID_EVENT,
    CLFFT_INVALID_EVENT_WAIT_LIST = CL_INVALID_EVENT_WAIT_LIST,
    CLFFT_INVALID_GLOBAL_OFFSET = CL_INVALID_GLOBAL_OFFSET,
    CLFFT_INVALID_WORK_ITEM_SIZE = CL_INVALID_WORK_ITEM_SIZE,
    CLFFT_INVALID_WORK_GROUP_SIZE = CL_INVALID_WORK_GROUP_SIZE,
    CLFFT_INVALID_WORK_DIMENSION = CL_INVALID_WORK_DIMENSION,
    CLFFT_INVALID_KERNEL_ARGS = CL_INVALID_KERNEL_ARGS,
    CLFFT_INVALID_ARG_SIZE = CL_INVALID_ARG_SIZE,
    CLFFT_INVALID_ARG_VALUE = CL_INVALID_ARG_VALUE,
    CLFFT_INVALID_ARG_INDEX = CL_INVALID_ARG_INDEX,
    CLFFT_INVALID_KERNEL = CL_INVALID_KERNEL,
    CLFFT_INVALID_KERNEL_DEFINITION = CL_INVALID_KERNEL_DEFINITION,
    CLFFT_INVALID_KERNEL_NAME = CL_INVALID_KERNEL_NAME,
    CLFFT_INVALID_PROGRAM_EXECUTABLE = CL_INVALID_PROGRAM_EXECUTABLE,
    CLFFT_INVALID_PROGRAM = CL_INVALID_PROGRAM,
    CLFFT_INVALID_BUILD_OPTIONS = CL_INVALID_BUILD_OPTIONS,
    CLFFT_INVALID_BINARY = CL_INVALID_BINARY,
    CLFFT_INVALID_SAMPLER = CL_INVALID_SAMPLER,
    CLFFT_INVALID_IMAGE_SIZE = CL_INVALID_IMAGE_SIZE,
    CLFFT_INVALID_IMAGE_FORMAT_DESCRIPTOR = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
    CLFFT_INVALID_MEM_OBJECT = CL_INVALID_MEM_OBJECT,
    CLFFT_INVALID_HOST_PTR = CL_INVALID_HOST_PTR,
    CLFFT_INVALID_COMMAND_QUEUE = CL_INVALID_COMMAND_QUEUE,
    CLFFT_INVALID_QUEUE_PROPERTIES = CL_INVALID_QUEUE_PROPERTIES,
    CLFFT_INVALID_CONTEXT = CL_INVALID_CONTEXT,
    CLFFT_INVALID_DEVICE = CL_INVALID_DEVICE,
    CLFFT_INVALID_PLATFORM = CL_INVALID_PLATFORM,
    CLFFT_INVALID_DEVICE_TYPE = CL_INVALID_DEVICE_TYPE,
    CLFFT_INVALID_VALUE = CL_INVALID_VALUE,
    CLFFT_MAP_FAILURE = CL_MAP_FAILURE,
    CLFFT_BUILD_PROGRAM_FAILURE = CL_BUILD_PROGRAM_FAILURE,
    CLFFT_IMAGE_FORMAT_NOT_SUPPORTED = CL_IMAGE_FORMAT_NOT_SUPPORTED,
    CLFFT_IMAGE_FORMAT_MISMATCH = CL_IMAGE_FORMAT_MISMATCH,
    CLFFT_MEM_COPY_OVERLAP = CL_MEM_COPY_OVERLAP,
    CLFFT_PROFILING_INFO_NOT_AVAILABLE = CL_PROFILING_INFO_NOT_AVAILABLE,
    CLFFT_OUT_OF_HOST_MEMORY = CL_OUT_OF_HOST_MEMORY,
    CLFFT_OUT_OF_RESOURCES = CL_OUT_OF_RESOURCES,
    CLFFT_MEM_OBJECT_ALLOCATION_FAILURE = CL_MEM_OBJECT_ALLOCATION_FAILURE,
    CLFFT_COMPILER_NOT_AVAILABLE = CL_COMPILER_NOT_AVAILABLE,
    CLFFT_DEVICE_NOT_AVAILABLE = CL_DEVICE_NOT_AVAILABLE,
    CLFFT_DEVICE_NOT_FOUND = CL_DEVICE_NOT_FOUND,
    CLFFT_SUCCESS = CL_SUCCESS,
    CLFFT_BUGCHECK = 4096,                  /* an internal inconsistency: a library bug */
    CLFFT_NOTIMPLEMENTED = 4097,            /* the request is valid but not supported */
    CLFFT_TRANSPOSED_NOTIMPLEMENTED = 4098, /* a transposed result is not available for this plan */
    CLFFT_FILE_NOT_FOUND = 4099,            /* a file the library needed could not be opened */
    CLFFT_FILE_CREATE_FAILURE = 4100,       /* a file the library wanted to write could not be created */
    CLFFT_VERSION_MISMATCH = 4101,          /* the caller and the library disagree on the version */
    CLFFT_INVALID_PLAN = 4102,              /* no plan with this handle, or the plan's settings contradict */
    CLFFT_DEVICE_NO_DOUBLE = 4103,          /* double precision requested on a device without it */
    CLFFT_DEVICE_MISMATCH = 4104,           /* the plan was baked for another device than the queue's */
    CLFFT_ENDSTATUS = 4105                  /* one past the last status */
};
typedef enum clfftStatus_ clfftStatus;

/* Number of dimensions of a transform. */
typedef enum clfftDim_ {
    CLFFT_1D = 1,
    CLFFT_2D = 2,
    CLFFT_3D = 3,
    ENDDIMENSION = 4 /* one past the last value */
} clfftDim;

/* How the values of a buffer are stored. */
typedef enum clfftLayout_ {
    CLFFT_COMPLEX_INTERLEAVED = 1,   /* complex values as (re, im) pairs in one buffer (the default) */
    CLFFT_COMPLEX_PLANAR = 2,        /* real parts in one buffer, imaginary parts in a second */
    CLFFT_HERMITIAN_INTERLEAVED = 3, /* the non-redundant half of a real signal's spectrum, as pairs */
    CLFFT_HERMITIAN_PLANAR = 4,      /* the same half spectrum, split over two buffers */
    CLFFT_REAL = 5,                  /* real values only */
    ENDLAYOUT = 6                    /* one past the last value */
} clfftLayout;

/* Floating-point type of the data. */
typedef enum clfftPrecision_ {
    CLFFT_SINGLE = 1, /* float (the default) */
    CLFFT_DOUBLE = 2, /* double */
    CLFFT_SINGLE_FAST = 3,
    CLFFT_DOUBLE_FAST = 4,
    ENDPRECISION = 5 /* one past the last value */
} clfftPrecision;

/* Sign of the exponent: forward is exp(-2 pi i jk/N), backward exp(+2 pi i jk/N). */
typedef enum clfftDirection_ {
    CLFFT_FORWARD = -1,
    CLFFT_BACKWARD = 1,
    CLFFT_MINUS = -1, /* another name for CLFFT_FORWARD */
    CLFFT_PLUS = 1,   /* another name for CLFFT_BACKWARD */
    ENDDIRECTION = 2  /* one past the last value */
} clfftDirection;

/* Whether the result overwrites the input or goes to separate output buffers. */
typedef enum clfftResultLocation_ {
    CLFFT_INPLACE = 1, /* the default */
    CLFFT_OUTOFPLACE = 2,
    ENDPLACE = 3 /* one past the last value */
} clfftResultLocation;

/* Whether a 2D result is stored transposed. */
typedef enum clfftResultTransposed_ {
    CLFFT_NOTRANSPOSE = 1, /* the default */
    CLFFT_TRANSPOSED = 2,
    ENDTRANSPOSED = 3 /* one past the last value */
} clfftResultTransposed;

/* clfftSetupData.debugFlags bit: keep the OpenCL programs the library generates. */
#define CLFFT_DUMP_PROGRAMS 0x1

/* What clfftSetup receives: the version the caller was built against and debug flags (0 normally). */
struct clfftSetupData_ {
    cl_uint major;
    cl_uint minor;
    cl_uint patch;
    cl_ulong debugFlags;
};
typedef struct clfftSetupData_ clfftSetupData;

/* Where a user callback would run: on each input value, or on each output value. */
typedef enum clfftCallbackType_ {
    PRECALLBACK = 0,
    POSTCALLBACK = 1
} clfftCallbackType;

/* Identifies a plan. Handles are never 0. */
typedef size_t clfftPlanHandle;

#ifdef __cplusplus
extern "C" {
#endif

/* Fills setupData with this header's version and no debug flags. It is defined here so that it needs no
 * library call; libfftx.so exports the same function for callers built against headers that do not inline
 * it. */
static __inline clfftStatus clfftInitSetupData(clfftSetupData *setupData)
{
    setupData->major = clfftVersionMajor;
    setupData->minor = clfftVersionMinor;
    setupData->patch = clfftVersionPatch;
    setupData->debugFlags = 0;
    return CLFFT_SUCCESS;
}

/* Initialises the library. setupData may be NULL; otherwise it comes from clfftInitSetupData. */
CLFFTAPI clfftStatus clfftSetup(const clfftSetupData *setupData);

/* Destroys every remaining plan and frees the library's resources. (void) is the prototype form of
 * clFFT's empty parameter list; the ABI is the same. */
CLFFTAPI clfftStatus clfftTeardown(void);

/* Reports the clFFT version this library implements. */
CLFFTAPI clfftStatus clfftGetVersion(cl_uint *major, cl_uint *minor, cl_uint *patch);

/* Creates a plan for a dim-dimensional transform of clLengths (fastest dimension first) in context.
 * Defaults: single precision, complex interleaved in and out, in place, batch 1, packed strides, distances
 * equal to the product of the lengths, forward scale 1 and backward scale 1/N. */
CLFFTAPI clfftStatus clfftCreateDefaultPlan(clfftPlanHandle *plHandle, cl_context context, const clfftDim dim,
                                            const size_t *clLengths);

/* Creates a new, unbaked plan in new_context with the settings of in_plHandle. */
CLFFTAPI clfftStatus clfftCopyPlan(clfftPlanHandle *out_plHandle, cl_context new_context,
                                   clfftPlanHandle in_plHandle);

/* Prepares the plan for the device of the first queue: generates and compiles its kernels. Optional: the
 * first enqueue bakes an unbaked plan. Changing any setting afterwards undoes the bake. pfn_notify, when
 * given, is called with user_data once the bake is done. */
CLFFTAPI clfftStatus clfftBakePlan(clfftPlanHandle plHandle, cl_uint numQueues, cl_command_queue *commQueueFFT,
                                   void(CL_CALLBACK *pfn_notify)(clfftPlanHandle plHandle, void *user_data),
                                   void *user_data);

/* Destroys the plan and sets *plHandle to 0. */
CLFFTAPI clfftStatus clfftDestroyPlan(clfftPlanHandle *plHandle);

/* The context the plan was created in. */
CLFFTAPI clfftStatus clfftGetPlanContext(const clfftPlanHandle plHandle, cl_context *context);

/* Floating-point precision of the plan's data. */
CLFFTAPI clfftStatus clfftGetPlanPrecision(const clfftPlanHandle plHandle, clfftPrecision *precision);
CLFFTAPI clfftStatus clfftSetPlanPrecision(clfftPlanHandle plHandle, clfftPrecision precision);

/* The factor applied to the result of a transform in direction dir. */
CLFFTAPI clfftStatus clfftGetPlanScale(const clfftPlanHandle plHandle, clfftDirection dir, cl_float *scale);
CLFFTAPI clfftStatus clfftSetPlanScale(clfftPlanHandle plHandle, clfftDirection dir, cl_float scale);

/* Number of transforms run by one enqueue, batchSize arrays apart by the plan's distances. */
CLFFTAPI clfftStatus clfftGetPlanBatchSize(const clfftPlanHandle plHandle, size_t *batchSize);
CLFFTAPI clfftStatus clfftSetPlanBatchSize(clfftPlanHandle plHandle, size_t batchSize);

/* Number of dimensions; size receives the number of entries the length and stride arrays hold. Setting a
 * dimension adapts the lengths and strides to it. */
CLFFTAPI clfftStatus clfftGetPlanDim(const clfftPlanHandle plHandle, clfftDim *dim, cl_uint *size);
CLFFTAPI clfftStatus clfftSetPlanDim(clfftPlanHandle plHandle, const clfftDim dim);

/* The first dim lengths of the transform, fastest dimension first. */
CLFFTAPI clfftStatus clfftGetPlanLength(const clfftPlanHandle plHandle, const clfftDim dim, size_t *clLengths);
CLFFTAPI clfftStatus clfftSetPlanLength(clfftPlanHandle plHandle, const clfftDim dim, const size_t *clLengths);

/* Distance, in elements, between neighbours along each dimension of the input. */
CLFFTAPI clfftStatus clfftGetPlanInStride(const clfftPlanHandle plHandle, const clfftDim dim, size_t *clStrides);
CLFFTAPI clfftStatus clfftSetPlanInStride(clfftPlanHandle plHandle, const clfftDim dim, size_t *clStrides);

/* Distance, in elements, between neighbours along each dimension of the output. */
CLFFTAPI clfftStatus clfftGetPlanOutStride(const clfftPlanHandle plHandle, const clfftDim dim, size_t *clStrides);
CLFFTAPI clfftStatus clfftSetPlanOutStride(clfftPlanHandle plHandle, const clfftDim dim, size_t *clStrides);

/* Distance, in elements, between the first elements of consecutive transforms of a batch, for the input
 * (iDist) and the output (oDist). */
CLFFTAPI clfftStatus clfftGetPlanDistance(const clfftPlanHandle plHandle, size_t *iDist, size_t *oDist);
CLFFTAPI clfftStatus clfftSetPlanDistance(clfftPlanHandle plHandle, size_t iDist, size_t oDist);

/* Storage layouts of the input and the output. */
CLFFTAPI clfftStatus clfftGetLayout(const clfftPlanHandle plHandle, clfftLayout *iLayout, clfftLayout *oLayout);
CLFFTAPI clfftStatus clfftSetLayout(clfftPlanHandle plHandle, clfftLayout iLayout, clfftLayout oLayout);

/* In place or out of place. */
CLFFTAPI clfftStatus clfftGetResultLocation(const clfftPlanHandle plHandle, clfftResultLocation *placeness);
CLFFTAPI clfftStatus clfftSetResultLocation(clfftPlanHandle plHandle, clfftResultLocation placeness);

/* Whether a 2D result is written transposed. */
CLFFTAPI clfftStatus clfftGetPlanTransposeResult(const clfftPlanHandle plHandle, clfftResultTransposed *transposed);
CLFFTAPI clfftStatus clfftSetPlanTransposeResult(clfftPlanHandle plHandle, clfftResultTransposed transposed);

/* Bytes of scratch memory the baked plan needs (0 when none); CLFFT_INVALID_OPERATION before the bake. A
 * buffer of that size may be passed as tmpBuffer to clfftEnqueueTransform. */
CLFFTAPI clfftStatus clfftGetTmpBufSize(const clfftPlanHandle plHandle, size_t *buffersize);

/* Registers OpenCL C code to run on each input value (PRECALLBACK: it returns the value the transform reads)
 * or on each output value (POSTCALLBACK: it receives the value and stores what it likes), with clFFT's
 * prototypes, at most one user-data buffer and localMemSize bytes of local memory (0 for none). The code is
 * compiled into the plan's kernels at the next bake, which fails with CL_BUILD_PROGRAM_FAILURE where it does
 * not compile. */
CLFFTAPI clfftStatus clfftSetPlanCallback(clfftPlanHandle plHandle, const char *funcName, const char *funcString,
                                          int localMemSize, clfftCallbackType callbackType, cl_mem *userdata,
                                          int numUserdataBuffers);

/* Enqueues the transform in direction dir on the first of commQueues, after the numWaitEvents events of
 * waitEvents. Each of the numQueuesAndEvents entries of outEvents (when not NULL) receives an event that
 * completes with the whole transform; the caller releases them. inputBuffers and outputBuffers hold one
 * buffer per plane (two for planar layouts); outputBuffers is ignored for in-place plans. tmpBuffer may be
 * NULL, in which case the plan uses scratch memory of its own. */
CLFFTAPI clfftStatus clfftEnqueueTransform(clfftPlanHandle plHandle, clfftDirection dir, cl_uint numQueuesAndEvents,
                                           cl_command_queue *commQueues, cl_uint numWaitEvents,
                                           const cl_event *waitEvents, cl_event *outEvents, cl_mem *inputBuffers,
                                           cl_mem *outputBuffers, cl_mem tmpBuffer);

#ifdef __cplusplus
}
#endif

#endif
