/* A process forked after fftx has run: OpenCL's state does not survive fork(), so every fftx call in the child
 * fails at once with FFTX_INTERNAL_ERROR and a message that says so, instead of hanging in the OpenCL runtime.
 * The parent goes on transforming. An alarm turns a hang in the child into a failure. */
#define _POSIX_C_SOURCE 200809L
#include <fftx.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 256

static int transform(fftxHandle plan)
{
    static fftxComplex data[N];
    for (int i = 0; i < N; i++) data[i] = (fftxComplex){(float)(i % 3), 0.0f};
    return fftxExecC2C(plan, data, data, FFTX_FORWARD);
}

int main(void)
{
    fftxHandle plan;
    if (fftxPlan1d(&plan, N, FFTX_C2C, 1) != FFTX_SUCCESS || transform(plan) != FFTX_SUCCESS) return 1;
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        alarm(30);
        int status = transform(plan);
        const char *message = fftxGetLastErrorMessage();
        printf("child: status %d: %s\n", status, message);
        /* The message stays valid until the thread's next failure. */
        int said = strstr(message, "fork()") != NULL;
        fftxHandle other;
        int planned = fftxPlan1d(&other, N, FFTX_C2C, 1);
        printf("child: planning status %d\n", planned);
        fflush(stdout);
        _exit(status == FFTX_INTERNAL_ERROR && planned == FFTX_INTERNAL_ERROR && said ? 0 : 3);
    }
    int child_status;
    if (waitpid(child, &child_status, 0) != child) return 1;
    if (!WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0) {
        fprintf(stderr, "the child failed: status %d\n", child_status);
        return 1;
    }
    if (transform(plan) != FFTX_SUCCESS) return 1;
    fftxDestroy(plan);
    printf("fork ok\n");
    return 0;
}
