from league.tasks import send_email


def test_a_real_worker_process_runs_a_task(celery_worker_process, mail_dir):
    result = send_email.delay("Hola", "Mesa 3 a las 8", ["carmen@example.com"])
    assert result.get(timeout=30) == 1
    bodies = [path.read_text() for path in mail_dir.iterdir()]
    assert any("Mesa 3 a las 8" in body and "carmen@example.com" in body for body in bodies)
    assert celery_worker_process.poll() is None
