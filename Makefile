# make            builds target/release/libfftx.so
# make install    installs it under PREFIX (default $HOME/.local): see scripts/install
# make uninstall  removes what make install put under PREFIX
PREFIX ?= $(HOME)/.local

.PHONY: all install uninstall

all:
	cargo build --release

install: all
	scripts/install --prefix "$(PREFIX)" --library target/release/libfftx.so

uninstall:
	scripts/install --uninstall --prefix "$(PREFIX)"
