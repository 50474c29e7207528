/* The kiln CLI's commands (one file each). argv[0] is the command name. */
#ifndef KILN_TOOLS_COMMANDS_H
#define KILN_TOOLS_COMMANDS_H

int kiln_cmd_check(int argc, char **argv);
int kiln_cmd_run(int argc, char **argv);
int kiln_cmd_devices(int argc, char **argv);
int kiln_cmd_bench(int argc, char **argv);

#endif
