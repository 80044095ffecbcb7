/* The plot of goal tune: time against size, log-log, one panel per collective and one
   curve per configuration, as one SVG picture (no plotting tool needed). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

#define SVG_W 760.0
#define SVG_H 300.0
#define SVG_X0 70.0
#define SVG_X1 520.0
static const char *const svg_colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                          "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

typedef struct svg_frame { double y0, lx0, lx1, ly0, ly1; } svg_frame;
static double svg_x(const svg_frame *fr, uint64_t size) {
    double lx = log2((double)(size ? size : 1));
    return fr->lx1 > fr->lx0 ? SVG_X0 + (lx - fr->lx0) / (fr->lx1 - fr->lx0) * (SVG_X1 - SVG_X0) : (SVG_X0 + SVG_X1) / 2;
}
static double svg_y(const svg_frame *fr, double time) {
    double ly = log10(time > 1 ? time : 1);
    return fr->ly1 > fr->ly0 ? fr->y0 + SVG_H - 40 - (ly - fr->ly0) / (fr->ly1 - fr->ly0) * (SVG_H - 70) : fr->y0 + SVG_H / 2;
}
/* The ranges of one panel's points. */
static void svg_frame_of(const cli_plot_panel *pa, double y0, svg_frame *fr) {
    size_t c, k;
    int any = 0;
    memset(fr, 0, sizeof *fr);
    fr->y0 = y0;
    for (c = 0; c < pa->n; c++)
        for (k = 0; k < pa->curves[c].n; k++) {
            const cli_plot_point *pt = &pa->curves[c].pts[k];
            double lx = log2((double)(pt->size ? pt->size : 1)), ly = log10(pt->time > 1 ? pt->time : 1);
            if (!any++) { fr->lx0 = fr->lx1 = lx; fr->ly0 = fr->ly1 = ly; }
            fr->lx0 = lx < fr->lx0 ? lx : fr->lx0; fr->lx1 = lx > fr->lx1 ? lx : fr->lx1;
            fr->ly0 = ly < fr->ly0 ? ly : fr->ly0; fr->ly1 = ly > fr->ly1 ? ly : fr->ly1;
        }
    fr->ly0 = floor(fr->ly0);
    fr->ly1 = ceil(fr->ly1 > fr->ly0 ? fr->ly1 : fr->ly0 + 1);
}
static void svg_axes(FILE *f, const svg_frame *fr, const char *title, long long p) {
    double e;
    fprintf(f, "<text x='%g' y='%g' font-weight='bold'>%s, p = %lld</text>\n", SVG_X0, fr->y0 + 20, title, p);
    fprintf(f, "<path d='M%g %g V%g H%g' stroke='black' fill='none'/>\n", SVG_X0, fr->y0 + 30, fr->y0 + SVG_H - 40, SVG_X1);
    for (e = fr->ly0; e <= fr->ly1; e++)
        fprintf(f, "<text x='%g' y='%g' text-anchor='end' font-size='11'>1e%g ns</text>\n", SVG_X0 - 4, svg_y(fr, pow(10, e)) + 4, e);
    for (e = ceil(fr->lx0); e <= fr->lx1; e += 2)
        fprintf(f, "<text x='%g' y='%g' text-anchor='middle' font-size='11'>2^%g</text>\n", svg_x(fr, (uint64_t)pow(2, e)), fr->y0 + SVG_H - 24, e);
    fprintf(f, "<text x='%g' y='%g' text-anchor='middle' font-size='11'>message size (bytes)</text>\n", (SVG_X0 + SVG_X1) / 2, fr->y0 + SVG_H - 8);
}
/* One curve, the row-th of its panel; thick when it wins at some size, a dot where. */
static void svg_curve(FILE *f, const svg_frame *fr, const cli_plot_curve *cu, int row) {
    size_t k;
    const char *col = svg_colours[row % 10];
    fprintf(f, "<g><title>%s</title><path fill='none' stroke='%s' stroke-width='%d' opacity='%s' d='", cu->label, col,
            cu->wins ? 3 : 1, cu->wins ? "1" : "0.55");
    for (k = 0; k < cu->n; k++) fprintf(f, "%s%.1f %.1f", k ? " L" : "M", svg_x(fr, cu->pts[k].size), svg_y(fr, cu->pts[k].time));
    fprintf(f, "'/>");
    for (k = 0; k < cu->n; k++)
        if (cu->pts[k].win) fprintf(f, "<circle cx='%.1f' cy='%.1f' r='4' fill='%s'/>", svg_x(fr, cu->pts[k].size), svg_y(fr, cu->pts[k].time), col);
    fprintf(f, "</g>\n<text x='%g' y='%g' font-size='11' fill='%s'%s>%s</text>\n", SVG_X1 + 16, fr->y0 + 40 + 13.0 * row, col,
            cu->wins ? " font-weight='bold'" : "", cu->label);
}
void cli_plot_svg(void *out, const cli_plot_panel *panels, size_t n, long long p) {
    FILE *f = (FILE *)out;
    svg_frame fr;
    size_t k, c;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%g' height='%g' font-family='sans-serif' font-size='13'>\n", SVG_W,
            SVG_H * (double)n + 10);
    fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
    for (k = 0; k < n; k++) {
        svg_frame_of(&panels[k], SVG_H * (double)k, &fr);
        svg_axes(f, &fr, panels[k].title, p);
        for (c = 0; c < panels[k].n; c++) svg_curve(f, &fr, &panels[k].curves[c], (int)c);
    }
    fprintf(f, "</svg>\n");
}
