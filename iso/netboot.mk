# iso/netboot.mk - `make netboot`: a TFTP root for booting the benchmark
# over the network (included by the Makefile).
#
#   $(BUILD)/netboot/                      the TFTP server's root directory
#     boot/bench.elf                       the kernel (multiboot2)
#     boot/plan.txt                        iso/plan.txt, the example plan: the
#                                          menu's "run the plan (the ISO's
#                                          example)" entry loads it as a boot
#                                          module; put your own plan here
#                                          (docs/LAB.md "A plan over the
#                                          network")
#     boot/grub/grub.cfg                   iso/grub.cfg after a header
#                                          (tools/benchnetboot.py) giving every
#                                          entry send= to the collector on the
#                                          server the machine booted from, port
#                                          SEND_PORT, ?token=SEND_TOKEN; GRUB's
#                                          root is the TFTP server, so the
#                                          ISO's /boot/bench.elf paths hold
#     boot/grub/i386-pc/core.0             BIOS PXE: the DHCP boot file name
#     boot/grub/x86_64-efi/core.efi        UEFI PXE: the DHCP boot file name
#
# GRUB's network image (grub-mknetdir) gets its address and the TFTP server
# from the PXE firmware's DHCP answer, then reads boot/grub/grub.cfg from
# that server. A lab DHCP server must hand out next-server (the TFTP
# server's address) and the file name, per client architecture (DHCP option
# 93: 0 BIOS, 7 or 9 x86-64 UEFI); see docs/LAB.md "Network boot for a lab". Under QEMU:
#
#   qemu-system-x86_64 -machine q35 -serial stdio \
#     -netdev user,id=n0,tftp=build/netboot,bootfile=boot/grub/i386-pc/core.0 \
#     -device e1000,netdev=n0 -boot n
#
# The UEFI image is built when grub-efi-amd64-bin is installed.

NETBOOT_DIR      := $(BUILD)/netboot
# Where the runs send their results (README "Sending the results"): by
# default the collector (`bench.py serve --port SEND_PORT [--token
# SEND_TOKEN]`) on the server each machine booted from; SEND=URL names
# another, SEND=off none; NETBOOT_WORDS are more words for every entry
# (e.g. after=reboot). Make them part of the command: make netboot
# SEND_TOKEN=s3cret NETBOOT_WORDS=after=reboot
SEND_PORT        ?= 8080
SEND_TOKEN       ?=
SEND             ?=
NETBOOT_WORDS    ?=
GRUB_PC_DIR      := /usr/lib/grub/i386-pc
GRUB_EFI_DIR     := /usr/lib/grub/x86_64-efi

# A value in the shell's single quotes, whatever it holds (' as '\''):
# tools/benchnetboot.py then says what is wrong with it.
netboot_q = '$(subst ','\'',$(1))'

.PHONY: netboot
netboot: $(BUILD)/bench.elf iso/grub.cfg iso/plan.txt tools/benchnetboot.py
	@command -v grub-mknetdir >/dev/null || { echo "netboot: grub-mknetdir is missing (Debian package grub-common)"; exit 1; }
	@test -d $(GRUB_PC_DIR) || { echo "netboot: $(GRUB_PC_DIR) is missing (Debian package grub-pc-bin)"; exit 1; }
	@rm -rf $(NETBOOT_DIR) && mkdir -p $(NETBOOT_DIR)/boot/grub
	@python3 tools/benchnetboot.py iso/grub.cfg $(NETBOOT_DIR)/boot/grub/grub.cfg --port $(call netboot_q,$(SEND_PORT)) \
		$(if $(SEND_TOKEN),--token $(call netboot_q,$(SEND_TOKEN))) $(if $(SEND),--send $(call netboot_q,$(SEND))) \
		$(if $(NETBOOT_WORDS),--words $(call netboot_q,$(NETBOOT_WORDS))) || { rm -rf $(NETBOOT_DIR); exit 1; }
	@echo "  NET   $(NETBOOT_DIR)/boot/grub/i386-pc/core.0"
	@grub-mknetdir --net-directory=$(NETBOOT_DIR) --subdir=boot/grub -d $(GRUB_PC_DIR) \
		--locales= --themes= --fonts= > $(BUILD)/grub-mknetdir.log 2>&1 || \
		{ cat $(BUILD)/grub-mknetdir.log; exit 1; }
	@if [ -d $(GRUB_EFI_DIR) ]; then \
		echo "  NET   $(NETBOOT_DIR)/boot/grub/x86_64-efi/core.efi"; \
		grub-mknetdir --net-directory=$(NETBOOT_DIR) --subdir=boot/grub -d $(GRUB_EFI_DIR) \
			--locales= --themes= --fonts= >> $(BUILD)/grub-mknetdir.log 2>&1 || \
			{ cat $(BUILD)/grub-mknetdir.log; exit 1; }; \
	else echo "netboot: $(GRUB_EFI_DIR) is missing (Debian package grub-efi-amd64-bin): no UEFI image"; fi
	@cp $(BUILD)/bench.elf $(NETBOOT_DIR)/boot/bench.elf
	@cp iso/plan.txt $(NETBOOT_DIR)/boot/plan.txt
	@echo "netboot: TFTP root $(NETBOOT_DIR): BIOS boot file boot/grub/i386-pc/core.0$$( \
		[ -f $(NETBOOT_DIR)/boot/grub/x86_64-efi/core.efi ] && echo ', UEFI boot file boot/grub/x86_64-efi/core.efi')"
