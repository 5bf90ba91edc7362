# make            builds target/release/libfftx.so
# make install    installs it under PREFIX (default /usr/local): see scripts/install
PREFIX ?= /usr/local

.PHONY: all install

all:
	cargo build --release

install: all
	scripts/install --prefix "$(PREFIX)" --library target/release/libfftx.so
