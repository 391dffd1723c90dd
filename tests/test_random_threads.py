"""A SeedGenerator shared by threads: each draw gets its own (seed, counter)
pair, so threads never draw the same numbers (Keras' generator is a
variable whose update TensorFlow serialises)."""
import threading

import pycg


def test_threads_drawing_from_one_generator_never_repeat_a_draw(backend):
    # Before: 115 (jax) and 143 (tensorflow) distinct draws of 200: the
    # state was read by two threads before either moved it on.
    gen, out = pycg.random.SeedGenerator(7), []
    start = threading.Barrier(4)

    def work():
        start.wait()
        for _ in range(50):
            out.append(float(pycg.random.normal((1,), seed=gen)[0]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # the draws of counters 0..199 of seed 7, one thread, in order
    one = pycg.random.SeedGenerator(7)
    expected = [float(pycg.random.normal((1,), seed=one)[0])
                for _ in range(200)]
    assert len(set(expected)) == 200
    assert sorted(out) == sorted(expected)
