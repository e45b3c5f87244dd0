/* A screen reader for the tests, one per way real programs read the screen, each writing every
 * frame it read as a PPM file, so that a test can count the frames that show a protected window:
 *
 *   screen-reader MODE INTERVAL_MS FRAMES FOLDER [WINDOW | WxH+X+Y]
 *
 * copyarea  the way libwebrtc shares a screen in Chrome, Firefox and Electron apps: one MIT-SHM
 *           shared pixmap, then each frame a core CopyArea from the root into it (an
 *           IncludeInferiors GC) and an XSync, the pixels read from shared memory; no GetImage.
 *           A geometry shares that region of the root only.
 * named     OBS's window capture: Composite redirects WINDOW and names its pixmap once, then
 *           reads that pixmap each frame.
 * damage    GStreamer's ximagesrc (Kazam, vokoscreen): a DAMAGE object on the root, and a frame
 *           read (GetImage of the root) each time damage is reported, at most each INTERVAL_MS.
 * getimage  a slow poller: a core GetImage of the root (or of the geometry's region) every
 *           INTERVAL_MS.
 *
 * FOLDER "-" writes no frame (for the bench). Prints "ready" once set up and "done" at the end,
 * on standard output. With SCREEN_READER_HOLD
 * set, named frees its pixmap after the frames, prints "freed" and stays connected until it
 * is killed, so that a test can see the end of the watch without the client's end. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xcomposite.h>
#include <X11/extensions/Xdamage.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms) {
    struct timespec time = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&time, &time) != 0 && errno == EINTR) {}
}

/* Writes `pixels` (32-bit ZPixmap, BGRX) of width x height as FOLDER/fNNN.ppm; a FOLDER of "-"
 * keeps nothing (the bench reads frames without writing them). */
static void write_frame(const char *folder, int index, const unsigned char *pixels, int width, int height, int stride) {
    if (strcmp(folder, "-") == 0) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/f%03d.ppm", folder, index);
    FILE *file = fopen(path, "wb");
    if (!file) { perror(path); exit(1); }
    fprintf(file, "P6\n%d %d\n255\n", width, height);
    for (int y = 0; y < height; y++) {
        const unsigned char *row = pixels + (size_t)y * stride;
        for (int x = 0; x < width; x++) {
            unsigned char rgb[3] = {row[x * 4 + 2], row[x * 4 + 1], row[x * 4]};
            fwrite(rgb, 1, 3, file);
        }
    }
    fclose(file);
}

static void write_image(const char *folder, int index, XImage *image) {
    write_frame(folder, index, (unsigned char *)image->data, image->width, image->height, image->bytes_per_line);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: screen-reader copyarea|named|damage|getimage INTERVAL_MS FRAMES FOLDER [WINDOW | WxH+X+Y]\n");
        return 2;
    }
    const char *mode = argv[1], *folder = argv[4];
    long interval = atol(argv[2]);
    int frames = atoi(argv[3]);
    Display *display = XOpenDisplay(NULL);
    if (!display) { fprintf(stderr, "screen-reader: cannot open the display\n"); return 1; }
    int screen = DefaultScreen(display);
    Window root = RootWindow(display, screen);
    int width = DisplayWidth(display, screen), height = DisplayHeight(display, screen);
    /* The region read: the whole root, or the geometry given. */
    int left = 0, top = 0;
    if (argc >= 6 && strchr(argv[5], 'x') != NULL) {
        unsigned int w, h;
        if (sscanf(argv[5], "%ux%u+%d+%d", &w, &h, &left, &top) != 4 || w == 0 || h == 0) {
            fprintf(stderr, "screen-reader: bad geometry %s (expected WxH+X+Y)\n", argv[5]);
            return 2;
        }
        width = (int)w;
        height = (int)h;
    }

    if (strcmp(mode, "copyarea") == 0) {
        XShmSegmentInfo segment;
        int major, minor;
        Bool pixmaps;
        if (!XShmQueryVersion(display, &major, &minor, &pixmaps) || !pixmaps) {
            fprintf(stderr, "screen-reader: no MIT-SHM shared pixmaps\n");
            return 1;
        }
        int stride = width * 4;
        segment.shmid = shmget(IPC_PRIVATE, (size_t)stride * height, IPC_CREAT | 0600);
        segment.shmaddr = shmat(segment.shmid, NULL, 0);
        segment.readOnly = False;
        XShmAttach(display, &segment);
        XSync(display, False);
        shmctl(segment.shmid, IPC_RMID, NULL);
        Pixmap pixmap = XShmCreatePixmap(display, root, segment.shmaddr, &segment, width, height, DefaultDepth(display, screen));
        XGCValues values;
        values.subwindow_mode = IncludeInferiors;
        GC gc = XCreateGC(display, pixmap, GCSubwindowMode, &values);
        XSync(display, False);
        printf("ready\n");
        fflush(stdout);
        for (int index = 0; index < frames; index++) {
            if (index > 0) sleep_ms(interval);
            XCopyArea(display, root, pixmap, gc, left, top, width, height, 0, 0);
            XSync(display, False);
            write_frame(folder, index, (unsigned char *)segment.shmaddr, width, height, stride);
        }
        XFreePixmap(display, pixmap);
        XShmDetach(display, &segment);
    } else if (strcmp(mode, "named") == 0) {
        if (argc < 6) { fprintf(stderr, "screen-reader: named needs WINDOW\n"); return 2; }
        Window window = (Window)strtoul(argv[5], NULL, 0);
        XWindowAttributes attributes;
        XGetWindowAttributes(display, window, &attributes);
        XCompositeRedirectWindow(display, window, CompositeRedirectAutomatic);
        Pixmap pixmap = XCompositeNameWindowPixmap(display, window);
        XSync(display, False);
        printf("ready\n");
        fflush(stdout);
        for (int index = 0; index < frames; index++) {
            if (index > 0) sleep_ms(interval);
            XImage *image = XGetImage(display, pixmap, 0, 0, attributes.width, attributes.height, AllPlanes, ZPixmap);
            if (!image) { fprintf(stderr, "screen-reader: the named pixmap could not be read\n"); return 1; }
            write_image(folder, index, image);
            XDestroyImage(image);
        }
        XFreePixmap(display, pixmap);
        XCompositeUnredirectWindow(display, window, CompositeRedirectAutomatic);
        if (getenv("SCREEN_READER_HOLD") != NULL) {
            XSync(display, False);
            printf("freed\n");
            fflush(stdout);
            for (;;) pause();
        }
    } else if (strcmp(mode, "damage") == 0) {
        int event_base, error_base;
        if (!XDamageQueryExtension(display, &event_base, &error_base)) { fprintf(stderr, "screen-reader: no DAMAGE\n"); return 1; }
        Damage damage = XDamageCreate(display, root, XDamageReportNonEmpty);
        XSync(display, False);
        printf("ready\n");
        fflush(stdout);
        for (int index = 0; index < frames; index++) {
            XEvent event;
            XNextEvent(display, &event);
            if (event.type != event_base + XDamageNotify) { index--; continue; }
            XDamageSubtract(display, damage, None, None);
            XImage *image = XGetImage(display, root, 0, 0, width, height, AllPlanes, ZPixmap);
            write_image(folder, index, image);
            XDestroyImage(image);
            sleep_ms(interval);
        }
        XDamageDestroy(display, damage);
    } else if (strcmp(mode, "getimage") == 0) {
        printf("ready\n");
        fflush(stdout);
        for (int index = 0; index < frames; index++) {
            if (index > 0) sleep_ms(interval);
            XImage *image = XGetImage(display, root, left, top, width, height, AllPlanes, ZPixmap);
            if (!image) { fprintf(stderr, "screen-reader: the root could not be read\n"); return 1; }
            write_image(folder, index, image);
            XDestroyImage(image);
        }
    } else {
        fprintf(stderr, "screen-reader: unknown mode %s\n", mode);
        return 2;
    }
    XSync(display, False);
    XCloseDisplay(display);
    printf("done\n");
    fflush(stdout);
    return 0;
}
