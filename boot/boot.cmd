# U-Boot script for the Versatile Express V2P-CA9 (U-Boot's vexpress_ca9x4):
# load the FIT image and boot its V2P-CA9 configuration.  ci/fit.sh
# compiles it to build/fit/boot.scr with "mkimage -T script".
#
# From an SD card: distro_bootcmd finds boot.scr on the card's first
# partition (FAT or ext) and runs it with devtype=mmc, devnum,
# distro_bootpart and prefix set; the FIT is read from the same folder.
# From the network: distro_bootcmd's "dhcp" step fetches boot.scr.uimg (a
# copy of boot.scr, or set boot_script_dhcp=boot.scr) from the DHCP
# server's TFTP server and runs it with devtype=dhcp; the FIT comes from
# the same server.  Run by hand ("dhcp; tftpboot ${scriptaddr} boot.scr;
# source ${scriptaddr}") devtype is unset: TFTP too.
#
# Set in the environment to change (saveenv keeps them):
#   fit_file  name of the image          (default vexpress-ca9.itb)
#   fit_mode  the initramfs' mode=       (default demo; check runs the tests)
#   fit_args  more kernel arguments      (default none)

# 128 MiB into DRAM: clear of the decompressed kernel (0x60008000, ~10 MiB)
# and of the zImage's load address (0x62000000); see boot/vexpress-ca9.its.
setenv fit_addr 0x68000000
if test -z "${fit_file}"; then setenv fit_file vexpress-ca9.itb; fi
if test -z "${fit_mode}"; then setenv fit_mode demo; fi
setenv bootargs "console=ttyAMA0,38400n8 mode=${fit_mode} ${fit_args}"

if test -z "${devtype}" -o "${devtype}" = dhcp; then
	setenv fit_load "tftpboot ${fit_addr} ${fit_file}"
else
	setenv fit_load "load ${devtype} ${devnum}:${distro_bootpart} ${fit_addr} ${prefix}${fit_file}"
fi

echo "boot.scr: ${fit_load}"
if run fit_load; then
	bootm ${fit_addr}#conf-vexpress-v2p-ca9
fi
echo "boot.scr: could not load or boot ${fit_file}"
