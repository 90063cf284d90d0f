/* tests/boot/early_fault_test.c - linked only into a test build
 * (EXTRA_SRC; tests/boot/t_methods.py): a #UD before the boot information
 * is read and before the console is set up. The trap handler must still
 * bring up the serial port, print the diagnostic and exit with the
 * failure code. */
void boot_test_hook(void);
void boot_test_hook(void)
{
	__asm__ volatile("ud2");
}
