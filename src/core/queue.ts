/**
 * One queue per key: tasks for the same key run one after another, each seeing the previous one's
 * result; tasks for different keys run independently. A failed task does not stop the queue.
 */

/** Run `task` after every task already queued under `key`; resolves or rejects with the task. */
export type SerialQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>;

/** A new, empty set of queues. */
export function createSerialQueue(): SerialQueue {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    // Forget an idle key once its last task is done, so the map does not grow with every encounter.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
